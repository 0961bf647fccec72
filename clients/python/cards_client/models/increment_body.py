from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="IncrementBody")


@_attrs_define
class IncrementBody:
    """
    Attributes:
        amount (float): Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip).
    """

    amount: float

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        increment_body = cls(
            amount=amount,
        )

        return increment_body
