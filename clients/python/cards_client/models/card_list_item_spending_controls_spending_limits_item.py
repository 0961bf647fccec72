from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_list_item_spending_controls_spending_limits_item_interval import (
    CardListItemSpendingControlsSpendingLimitsItemInterval,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CardListItemSpendingControlsSpendingLimitsItem")


@_attrs_define
class CardListItemSpendingControlsSpendingLimitsItem:
    """
    Attributes:
        amount (float | Unset):
        interval (CardListItemSpendingControlsSpendingLimitsItemInterval | Unset):
        categories (list[str] | Unset):
    """

    amount: float | Unset = UNSET
    interval: CardListItemSpendingControlsSpendingLimitsItemInterval | Unset = UNSET
    categories: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        interval: str | Unset = UNSET
        if not isinstance(self.interval, Unset):
            interval = self.interval.value

        categories: list[str] | Unset = UNSET
        if not isinstance(self.categories, Unset):
            categories = self.categories

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount
        if interval is not UNSET:
            field_dict["interval"] = interval
        if categories is not UNSET:
            field_dict["categories"] = categories

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount", UNSET)

        _interval = d.pop("interval", UNSET)
        interval: CardListItemSpendingControlsSpendingLimitsItemInterval | Unset
        if isinstance(_interval, Unset):
            interval = UNSET
        else:
            interval = CardListItemSpendingControlsSpendingLimitsItemInterval(_interval)

        categories = cast(list[str], d.pop("categories", UNSET))

        card_list_item_spending_controls_spending_limits_item = cls(
            amount=amount,
            interval=interval,
            categories=categories,
        )

        card_list_item_spending_controls_spending_limits_item.additional_properties = d
        return card_list_item_spending_controls_spending_limits_item

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
