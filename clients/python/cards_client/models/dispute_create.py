from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dispute_create_reason import DisputeCreateReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="DisputeCreate")


@_attrs_define
class DisputeCreate:
    """
    Attributes:
        reason (DisputeCreateReason):
        amount (float | None | Unset):
        explanation (None | str | Unset):
    """

    reason: DisputeCreateReason
    amount: float | None | Unset = UNSET
    explanation: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        amount: float | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        explanation: None | str | Unset
        if isinstance(self.explanation, Unset):
            explanation = UNSET
        else:
            explanation = self.explanation

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
            }
        )
        if amount is not UNSET:
            field_dict["amount"] = amount
        if explanation is not UNSET:
            field_dict["explanation"] = explanation

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = DisputeCreateReason(d.pop("reason"))

        def _parse_amount(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_explanation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        explanation = _parse_explanation(d.pop("explanation", UNSET))

        dispute_create = cls(
            reason=reason,
            amount=amount,
            explanation=explanation,
        )

        return dispute_create
