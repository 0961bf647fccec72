from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.spending_controls_spending_limits_item_interval import SpendingControlsSpendingLimitsItemInterval

T = TypeVar("T", bound="SpendingControlsSpendingLimitsItem")


@_attrs_define
class SpendingControlsSpendingLimitsItem:
    """
    Attributes:
        amount (float):
        interval (SpendingControlsSpendingLimitsItemInterval):
        categories (list[str]):
    """

    amount: float
    interval: SpendingControlsSpendingLimitsItemInterval
    categories: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        interval = self.interval.value

        categories = self.categories

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "interval": interval,
                "categories": categories,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        interval = SpendingControlsSpendingLimitsItemInterval(d.pop("interval"))

        categories = cast(list[str], d.pop("categories"))

        spending_controls_spending_limits_item = cls(
            amount=amount,
            interval=interval,
            categories=categories,
        )

        spending_controls_spending_limits_item.additional_properties = d
        return spending_controls_spending_limits_item

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
