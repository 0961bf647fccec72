from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TransferCreate")


@_attrs_define
class TransferCreate:
    """
    Attributes:
        debit_account_id (str):
        credit_account_id (str): Another account than `debitAccountId`, in its currency.
        amount (float): Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip).
        narration (None | str | Unset):
        reference (None | str | Unset):
    """

    debit_account_id: str
    credit_account_id: str
    amount: float
    narration: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        debit_account_id = self.debit_account_id

        credit_account_id = self.credit_account_id

        amount = self.amount

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "debitAccountId": debit_account_id,
                "creditAccountId": credit_account_id,
                "amount": amount,
            }
        )
        if narration is not UNSET:
            field_dict["narration"] = narration
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        debit_account_id = d.pop("debitAccountId")

        credit_account_id = d.pop("creditAccountId")

        amount = d.pop("amount")

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

        transfer_create = cls(
            debit_account_id=debit_account_id,
            credit_account_id=credit_account_id,
            amount=amount,
            narration=narration,
            reference=reference,
        )

        return transfer_create
