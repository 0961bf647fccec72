from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ledger_entry_list_item_type import LedgerEntryListItemType
from ..types import UNSET, Unset

T = TypeVar("T", bound="LedgerEntryListItem")


@_attrs_define
class LedgerEntryListItem:
    """
    Attributes:
        field_id (str | Unset):
        account_id (str | Unset):
        type_ (LedgerEntryListItemType | Unset):
        amount (float | Unset): Signed: credits positive, debits negative.
        balance_after (float | Unset):
        card_id (str | Unset):
        created_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    account_id: str | Unset = UNSET
    type_: LedgerEntryListItemType | Unset = UNSET
    amount: float | Unset = UNSET
    balance_after: float | Unset = UNSET
    card_id: str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        account_id = self.account_id

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        amount = self.amount

        balance_after = self.balance_after

        card_id = self.card_id

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if account_id is not UNSET:
            field_dict["accountId"] = account_id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if amount is not UNSET:
            field_dict["amount"] = amount
        if balance_after is not UNSET:
            field_dict["balanceAfter"] = balance_after
        if card_id is not UNSET:
            field_dict["cardId"] = card_id
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        account_id = d.pop("accountId", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: LedgerEntryListItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = LedgerEntryListItemType(_type_)

        amount = d.pop("amount", UNSET)

        balance_after = d.pop("balanceAfter", UNSET)

        card_id = d.pop("cardId", UNSET)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        ledger_entry_list_item = cls(
            field_id=field_id,
            account_id=account_id,
            type_=type_,
            amount=amount,
            balance_after=balance_after,
            card_id=card_id,
            created_at=created_at,
        )

        ledger_entry_list_item.additional_properties = d
        return ledger_entry_list_item

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
