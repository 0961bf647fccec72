from enum import StrEnum


class WebhookEndpointCreateEnabledEventsItem(StrEnum):
    ACCOUNT_CREATED = "account.created"
    ACCOUNT_UPDATED = "account.updated"
    AUTHORIZATION_CREATED = "authorization.created"
    AUTHORIZATION_UPDATED = "authorization.updated"
    CARD_CANCELED = "card.canceled"
    CARD_CREATED = "card.created"
    CARD_FUNDED = "card.funded"
    CARD_HOLDER_CREATED = "card_holder.created"
    CARD_HOLDER_UPDATED = "card_holder.updated"
    CARD_UPDATED = "card.updated"
    DISPUTE_CREATED = "dispute.created"
    DISPUTE_UPDATED = "dispute.updated"
    TRANSACTION_CREATED = "transaction.created"
    TRANSFER_CREATED = "transfer.created"
    VALUE_0 = "*"

    def __str__(self) -> str:
        return str(self.value)
