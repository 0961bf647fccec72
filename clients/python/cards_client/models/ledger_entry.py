from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ledger_entry_type import LedgerEntryType
from ..types import UNSET, Unset

T = TypeVar("T", bound="LedgerEntry")


@_attrs_define
class LedgerEntry:
    """
    Attributes:
        field_id (str):
        account_id (str):
        type_ (LedgerEntryType):
        amount (float): Signed: credits positive, debits negative.
        balance_after (float):
        created_at (datetime.datetime):
        card_id (str | Unset):
    """

    field_id: str
    account_id: str
    type_: LedgerEntryType
    amount: float
    balance_after: float
    created_at: datetime.datetime
    card_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        account_id = self.account_id

        type_ = self.type_.value

        amount = self.amount

        balance_after = self.balance_after

        created_at = self.created_at.isoformat()

        card_id = self.card_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "accountId": account_id,
                "type": type_,
                "amount": amount,
                "balanceAfter": balance_after,
                "createdAt": created_at,
            }
        )
        if card_id is not UNSET:
            field_dict["cardId"] = card_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id")

        account_id = d.pop("accountId")

        type_ = LedgerEntryType(d.pop("type"))

        amount = d.pop("amount")

        balance_after = d.pop("balanceAfter")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        card_id = d.pop("cardId", UNSET)

        ledger_entry = cls(
            field_id=field_id,
            account_id=account_id,
            type_=type_,
            amount=amount,
            balance_after=balance_after,
            created_at=created_at,
            card_id=card_id,
        )

        ledger_entry.additional_properties = d
        return ledger_entry

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
