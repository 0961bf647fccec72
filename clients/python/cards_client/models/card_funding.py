from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CardFunding")


@_attrs_define
class CardFunding:
    """
    Attributes:
        debit_account_id (str):
        amount (float): Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip).
    """

    debit_account_id: str
    amount: float

    def to_dict(self) -> dict[str, Any]:
        debit_account_id = self.debit_account_id

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "debitAccountId": debit_account_id,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        debit_account_id = d.pop("debitAccountId")

        amount = d.pop("amount")

        card_funding = cls(
            debit_account_id=debit_account_id,
            amount=amount,
        )

        return card_funding
