from enum import StrEnum


class AuditEventListItemAction(StrEnum):
    API_KEY_CREATED = "api_key.created"
    API_KEY_REVOKED = "api_key.revoked"
    CARD_REVEALED = "card.revealed"
    CARD_TOKEN_CREATED = "card.token_created"

    def __str__(self) -> str:
        return str(self.value)
