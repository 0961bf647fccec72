from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.api_key_created_permissions_accounts import ApiKeyCreatedPermissionsAccounts
from ..models.api_key_created_permissions_api_keys import ApiKeyCreatedPermissionsApiKeys
from ..models.api_key_created_permissions_audit import ApiKeyCreatedPermissionsAudit
from ..models.api_key_created_permissions_authorizations import ApiKeyCreatedPermissionsAuthorizations
from ..models.api_key_created_permissions_card_holders import ApiKeyCreatedPermissionsCardHolders
from ..models.api_key_created_permissions_cards import ApiKeyCreatedPermissionsCards
from ..models.api_key_created_permissions_disputes import ApiKeyCreatedPermissionsDisputes
from ..models.api_key_created_permissions_events import ApiKeyCreatedPermissionsEvents
from ..models.api_key_created_permissions_test_clock import ApiKeyCreatedPermissionsTestClock
from ..models.api_key_created_permissions_webhooks import ApiKeyCreatedPermissionsWebhooks

T = TypeVar("T", bound="ApiKeyCreatedPermissions")


@_attrs_define
class ApiKeyCreatedPermissions:
    """
    Attributes:
        accounts (ApiKeyCreatedPermissionsAccounts):
        card_holders (ApiKeyCreatedPermissionsCardHolders):
        cards (ApiKeyCreatedPermissionsCards):
        authorizations (ApiKeyCreatedPermissionsAuthorizations):
        disputes (ApiKeyCreatedPermissionsDisputes):
        events (ApiKeyCreatedPermissionsEvents):
        webhooks (ApiKeyCreatedPermissionsWebhooks):
        test_clock (ApiKeyCreatedPermissionsTestClock):
        api_keys (ApiKeyCreatedPermissionsApiKeys):
        audit (ApiKeyCreatedPermissionsAudit):
    """

    accounts: ApiKeyCreatedPermissionsAccounts
    card_holders: ApiKeyCreatedPermissionsCardHolders
    cards: ApiKeyCreatedPermissionsCards
    authorizations: ApiKeyCreatedPermissionsAuthorizations
    disputes: ApiKeyCreatedPermissionsDisputes
    events: ApiKeyCreatedPermissionsEvents
    webhooks: ApiKeyCreatedPermissionsWebhooks
    test_clock: ApiKeyCreatedPermissionsTestClock
    api_keys: ApiKeyCreatedPermissionsApiKeys
    audit: ApiKeyCreatedPermissionsAudit
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
        accounts = ApiKeyCreatedPermissionsAccounts(d.pop("accounts"))

        card_holders = ApiKeyCreatedPermissionsCardHolders(d.pop("card_holders"))

        cards = ApiKeyCreatedPermissionsCards(d.pop("cards"))

        authorizations = ApiKeyCreatedPermissionsAuthorizations(d.pop("authorizations"))

        disputes = ApiKeyCreatedPermissionsDisputes(d.pop("disputes"))

        events = ApiKeyCreatedPermissionsEvents(d.pop("events"))

        webhooks = ApiKeyCreatedPermissionsWebhooks(d.pop("webhooks"))

        test_clock = ApiKeyCreatedPermissionsTestClock(d.pop("test_clock"))

        api_keys = ApiKeyCreatedPermissionsApiKeys(d.pop("api_keys"))

        audit = ApiKeyCreatedPermissionsAudit(d.pop("audit"))

        api_key_created_permissions = cls(
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

        api_key_created_permissions.additional_properties = d
        return api_key_created_permissions

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
