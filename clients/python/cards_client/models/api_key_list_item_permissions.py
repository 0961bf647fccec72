from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.api_key_list_item_permissions_accounts import ApiKeyListItemPermissionsAccounts
from ..models.api_key_list_item_permissions_api_keys import ApiKeyListItemPermissionsApiKeys
from ..models.api_key_list_item_permissions_audit import ApiKeyListItemPermissionsAudit
from ..models.api_key_list_item_permissions_authorizations import ApiKeyListItemPermissionsAuthorizations
from ..models.api_key_list_item_permissions_card_holders import ApiKeyListItemPermissionsCardHolders
from ..models.api_key_list_item_permissions_cards import ApiKeyListItemPermissionsCards
from ..models.api_key_list_item_permissions_disputes import ApiKeyListItemPermissionsDisputes
from ..models.api_key_list_item_permissions_events import ApiKeyListItemPermissionsEvents
from ..models.api_key_list_item_permissions_test_clock import ApiKeyListItemPermissionsTestClock
from ..models.api_key_list_item_permissions_webhooks import ApiKeyListItemPermissionsWebhooks
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiKeyListItemPermissions")


@_attrs_define
class ApiKeyListItemPermissions:
    """
    Attributes:
        accounts (ApiKeyListItemPermissionsAccounts | Unset):
        card_holders (ApiKeyListItemPermissionsCardHolders | Unset):
        cards (ApiKeyListItemPermissionsCards | Unset):
        authorizations (ApiKeyListItemPermissionsAuthorizations | Unset):
        disputes (ApiKeyListItemPermissionsDisputes | Unset):
        events (ApiKeyListItemPermissionsEvents | Unset):
        webhooks (ApiKeyListItemPermissionsWebhooks | Unset):
        test_clock (ApiKeyListItemPermissionsTestClock | Unset):
        api_keys (ApiKeyListItemPermissionsApiKeys | Unset):
        audit (ApiKeyListItemPermissionsAudit | Unset):
    """

    accounts: ApiKeyListItemPermissionsAccounts | Unset = UNSET
    card_holders: ApiKeyListItemPermissionsCardHolders | Unset = UNSET
    cards: ApiKeyListItemPermissionsCards | Unset = UNSET
    authorizations: ApiKeyListItemPermissionsAuthorizations | Unset = UNSET
    disputes: ApiKeyListItemPermissionsDisputes | Unset = UNSET
    events: ApiKeyListItemPermissionsEvents | Unset = UNSET
    webhooks: ApiKeyListItemPermissionsWebhooks | Unset = UNSET
    test_clock: ApiKeyListItemPermissionsTestClock | Unset = UNSET
    api_keys: ApiKeyListItemPermissionsApiKeys | Unset = UNSET
    audit: ApiKeyListItemPermissionsAudit | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        accounts: str | Unset = UNSET
        if not isinstance(self.accounts, Unset):
            accounts = self.accounts.value

        card_holders: str | Unset = UNSET
        if not isinstance(self.card_holders, Unset):
            card_holders = self.card_holders.value

        cards: str | Unset = UNSET
        if not isinstance(self.cards, Unset):
            cards = self.cards.value

        authorizations: str | Unset = UNSET
        if not isinstance(self.authorizations, Unset):
            authorizations = self.authorizations.value

        disputes: str | Unset = UNSET
        if not isinstance(self.disputes, Unset):
            disputes = self.disputes.value

        events: str | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events.value

        webhooks: str | Unset = UNSET
        if not isinstance(self.webhooks, Unset):
            webhooks = self.webhooks.value

        test_clock: str | Unset = UNSET
        if not isinstance(self.test_clock, Unset):
            test_clock = self.test_clock.value

        api_keys: str | Unset = UNSET
        if not isinstance(self.api_keys, Unset):
            api_keys = self.api_keys.value

        audit: str | Unset = UNSET
        if not isinstance(self.audit, Unset):
            audit = self.audit.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if accounts is not UNSET:
            field_dict["accounts"] = accounts
        if card_holders is not UNSET:
            field_dict["card_holders"] = card_holders
        if cards is not UNSET:
            field_dict["cards"] = cards
        if authorizations is not UNSET:
            field_dict["authorizations"] = authorizations
        if disputes is not UNSET:
            field_dict["disputes"] = disputes
        if events is not UNSET:
            field_dict["events"] = events
        if webhooks is not UNSET:
            field_dict["webhooks"] = webhooks
        if test_clock is not UNSET:
            field_dict["test_clock"] = test_clock
        if api_keys is not UNSET:
            field_dict["api_keys"] = api_keys
        if audit is not UNSET:
            field_dict["audit"] = audit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _accounts = d.pop("accounts", UNSET)
        accounts: ApiKeyListItemPermissionsAccounts | Unset
        if isinstance(_accounts, Unset):
            accounts = UNSET
        else:
            accounts = ApiKeyListItemPermissionsAccounts(_accounts)

        _card_holders = d.pop("card_holders", UNSET)
        card_holders: ApiKeyListItemPermissionsCardHolders | Unset
        if isinstance(_card_holders, Unset):
            card_holders = UNSET
        else:
            card_holders = ApiKeyListItemPermissionsCardHolders(_card_holders)

        _cards = d.pop("cards", UNSET)
        cards: ApiKeyListItemPermissionsCards | Unset
        if isinstance(_cards, Unset):
            cards = UNSET
        else:
            cards = ApiKeyListItemPermissionsCards(_cards)

        _authorizations = d.pop("authorizations", UNSET)
        authorizations: ApiKeyListItemPermissionsAuthorizations | Unset
        if isinstance(_authorizations, Unset):
            authorizations = UNSET
        else:
            authorizations = ApiKeyListItemPermissionsAuthorizations(_authorizations)

        _disputes = d.pop("disputes", UNSET)
        disputes: ApiKeyListItemPermissionsDisputes | Unset
        if isinstance(_disputes, Unset):
            disputes = UNSET
        else:
            disputes = ApiKeyListItemPermissionsDisputes(_disputes)

        _events = d.pop("events", UNSET)
        events: ApiKeyListItemPermissionsEvents | Unset
        if isinstance(_events, Unset):
            events = UNSET
        else:
            events = ApiKeyListItemPermissionsEvents(_events)

        _webhooks = d.pop("webhooks", UNSET)
        webhooks: ApiKeyListItemPermissionsWebhooks | Unset
        if isinstance(_webhooks, Unset):
            webhooks = UNSET
        else:
            webhooks = ApiKeyListItemPermissionsWebhooks(_webhooks)

        _test_clock = d.pop("test_clock", UNSET)
        test_clock: ApiKeyListItemPermissionsTestClock | Unset
        if isinstance(_test_clock, Unset):
            test_clock = UNSET
        else:
            test_clock = ApiKeyListItemPermissionsTestClock(_test_clock)

        _api_keys = d.pop("api_keys", UNSET)
        api_keys: ApiKeyListItemPermissionsApiKeys | Unset
        if isinstance(_api_keys, Unset):
            api_keys = UNSET
        else:
            api_keys = ApiKeyListItemPermissionsApiKeys(_api_keys)

        _audit = d.pop("audit", UNSET)
        audit: ApiKeyListItemPermissionsAudit | Unset
        if isinstance(_audit, Unset):
            audit = UNSET
        else:
            audit = ApiKeyListItemPermissionsAudit(_audit)

        api_key_list_item_permissions = cls(
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

        api_key_list_item_permissions.additional_properties = d
        return api_key_list_item_permissions

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
