from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TransferListItem")


@_attrs_define
class TransferListItem:
    """
    Attributes:
        field_id (str | Unset):
        debit_account_id (str | Unset):
        credit_account_id (str | Unset):
        amount (float | Unset):
        currency (str | Unset):
        narration (None | str | Unset):
        reference (None | str | Unset):
        created_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    debit_account_id: str | Unset = UNSET
    credit_account_id: str | Unset = UNSET
    amount: float | Unset = UNSET
    currency: str | Unset = UNSET
    narration: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        debit_account_id = self.debit_account_id

        credit_account_id = self.credit_account_id

        amount = self.amount

        currency = self.currency

        narration: None | str | Unset
        if isinstance(self.narration, Unset):
            narration = UNSET
        else:
            narration = self.narration

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if debit_account_id is not UNSET:
            field_dict["debitAccountId"] = debit_account_id
        if credit_account_id is not UNSET:
            field_dict["creditAccountId"] = credit_account_id
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if narration is not UNSET:
            field_dict["narration"] = narration
        if reference is not UNSET:
            field_dict["reference"] = reference
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        debit_account_id = d.pop("debitAccountId", UNSET)

        credit_account_id = d.pop("creditAccountId", UNSET)

        amount = d.pop("amount", UNSET)

        currency = d.pop("currency", UNSET)

        def _parse_narration(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        narration = _parse_narration(d.pop("narration", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        transfer_list_item = cls(
            field_id=field_id,
            debit_account_id=debit_account_id,
            credit_account_id=credit_account_id,
            amount=amount,
            currency=currency,
            narration=narration,
            reference=reference,
            created_at=created_at,
        )

        transfer_list_item.additional_properties = d
        return transfer_list_item

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
