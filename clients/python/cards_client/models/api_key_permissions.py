from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.api_key_permissions_accounts import ApiKeyPermissionsAccounts
from ..models.api_key_permissions_api_keys import ApiKeyPermissionsApiKeys
from ..models.api_key_permissions_audit import ApiKeyPermissionsAudit
from ..models.api_key_permissions_authorizations import ApiKeyPermissionsAuthorizations
from ..models.api_key_permissions_card_holders import ApiKeyPermissionsCardHolders
from ..models.api_key_permissions_cards import ApiKeyPermissionsCards
from ..models.api_key_permissions_disputes import ApiKeyPermissionsDisputes
from ..models.api_key_permissions_events import ApiKeyPermissionsEvents
from ..models.api_key_permissions_test_clock import ApiKeyPermissionsTestClock
from ..models.api_key_permissions_webhooks import ApiKeyPermissionsWebhooks

T = TypeVar("T", bound="ApiKeyPermissions")


@_attrs_define
class ApiKeyPermissions:
    """
    Attributes:
        accounts (ApiKeyPermissionsAccounts):
        card_holders (ApiKeyPermissionsCardHolders):
        cards (ApiKeyPermissionsCards):
        authorizations (ApiKeyPermissionsAuthorizations):
        disputes (ApiKeyPermissionsDisputes):
        events (ApiKeyPermissionsEvents):
        webhooks (ApiKeyPermissionsWebhooks):
        test_clock (ApiKeyPermissionsTestClock):
        api_keys (ApiKeyPermissionsApiKeys):
        audit (ApiKeyPermissionsAudit):
    """

    accounts: ApiKeyPermissionsAccounts
    card_holders: ApiKeyPermissionsCardHolders
    cards: ApiKeyPermissionsCards
    authorizations: ApiKeyPermissionsAuthorizations
    disputes: ApiKeyPermissionsDisputes
    events: ApiKeyPermissionsEvents
    webhooks: ApiKeyPermissionsWebhooks
    test_clock: ApiKeyPermissionsTestClock
    api_keys: ApiKeyPermissionsApiKeys
    audit: ApiKeyPermissionsAudit
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        accounts = self.accounts.value

        card_holders = self.card_holders.value

        cards = self.cards.value

        authorizations = self.authorizations.value

        disputes = self.disputes.value

        events = self.events.value

        webhooks = self.webhooks.value

        test_clock = self.test_clock.value

        api_keys = self.api_keys.value

        audit = self.audit.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "accounts": accounts,
                "card_holders": card_holders,
                "cards": cards,
                "authorizations": authorizations,
                "disputes": disputes,
                "events": events,
                "webhooks": webhooks,
                "test_clock": test_clock,
                "api_keys": api_keys,
                "audit": audit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accounts = ApiKeyPermissionsAccounts(d.pop("accounts"))

        card_holders = ApiKeyPermissionsCardHolders(d.pop("card_holders"))

        cards = ApiKeyPermissionsCards(d.pop("cards"))

        authorizations = ApiKeyPermissionsAuthorizations(d.pop("authorizations"))

        disputes = ApiKeyPermissionsDisputes(d.pop("disputes"))

        events = ApiKeyPermissionsEvents(d.pop("events"))

        webhooks = ApiKeyPermissionsWebhooks(d.pop("webhooks"))

        test_clock = ApiKeyPermissionsTestClock(d.pop("test_clock"))

        api_keys = ApiKeyPermissionsApiKeys(d.pop("api_keys"))

        audit = ApiKeyPermissionsAudit(d.pop("audit"))

        api_key_permissions = cls(
            accounts=accounts,
            card_holders=card_holders,
            cards=cards,
            authorizations=authorizations,
            disputes=disputes,
            events=events,
            webhooks=webhooks,
            test_clock=test_clock,
            api_keys=api_keys,
            audit=audit,
        )

        api_key_permissions.additional_properties = d
        return api_key_permissions

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
