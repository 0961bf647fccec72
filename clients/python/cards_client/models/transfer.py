from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Transfer")


@_attrs_define
class Transfer:
    """
    Attributes:
        field_id (str):
        debit_account_id (str):
        credit_account_id (str):
        amount (float):
        currency (str):
        narration (None | str):
        reference (None | str):
        created_at (datetime.datetime):
    """

    field_id: str
    debit_account_id: str
    credit_account_id: str
    amount: float
    currency: str
    narration: None | str
    reference: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        debit_account_id = self.debit_account_id

        credit_account_id = self.credit_account_id

        amount = self.amount

        currency = self.currency

        narration: None | str
        narration = self.narration

        reference: None | str
        reference = self.reference

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "debitAccountId": debit_account_id,
                "creditAccountId": credit_account_id,
                "amount": amount,
                "currency": currency,
                "narration": narration,
                "reference": reference,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id")

        debit_account_id = d.pop("debitAccountId")

        credit_account_id = d.pop("creditAccountId")

        amount = d.pop("amount")

        currency = d.pop("currency")

        def _parse_narration(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        narration = _parse_narration(d.pop("narration"))

        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        transfer = cls(
            field_id=field_id,
            debit_account_id=debit_account_id,
            credit_account_id=credit_account_id,
            amount=amount,
            currency=currency,
            narration=narration,
            reference=reference,
            created_at=created_at,
        )

        transfer.additional_properties = d
        return transfer

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
