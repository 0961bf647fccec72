from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.spending_controls_input_spending_limits_type_0_item_interval import (
    SpendingControlsInputSpendingLimitsType0ItemInterval,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SpendingControlsInputSpendingLimitsType0Item")


@_attrs_define
class SpendingControlsInputSpendingLimitsType0Item:
    """
    Attributes:
        amount (float): Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip).
        interval (SpendingControlsInputSpendingLimitsType0ItemInterval):
        categories (list[str] | None | Unset):
    """

    amount: float
    interval: SpendingControlsInputSpendingLimitsType0ItemInterval
    categories: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        interval = self.interval.value

        categories: list[str] | None | Unset
        if isinstance(self.categories, Unset):
            categories = UNSET
        elif isinstance(self.categories, list):
            categories = self.categories

        else:
            categories = self.categories

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "interval": interval,
            }
        )
        if categories is not UNSET:
            field_dict["categories"] = categories

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        interval = SpendingControlsInputSpendingLimitsType0ItemInterval(d.pop("interval"))

        def _parse_categories(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                categories_type_0 = cast(list[str], data)

                return categories_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        categories = _parse_categories(d.pop("categories", UNSET))

        spending_controls_input_spending_limits_type_0_item = cls(
            amount=amount,
            interval=interval,
            categories=categories,
        )

        return spending_controls_input_spending_limits_type_0_item
