from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_list_item_spending_controls_channels import CardListItemSpendingControlsChannels
    from ..models.card_list_item_spending_controls_spending_limits_item import (
        CardListItemSpendingControlsSpendingLimitsItem,
    )


T = TypeVar("T", bound="CardListItemSpendingControls")


@_attrs_define
class CardListItemSpendingControls:
    """
    Attributes:
        channels (CardListItemSpendingControlsChannels | Unset):
        allowed_categories (list[str] | Unset):
        blocked_categories (list[str] | Unset):
        spending_limits (list[CardListItemSpendingControlsSpendingLimitsItem] | Unset):
    """

    channels: CardListItemSpendingControlsChannels | Unset = UNSET
    allowed_categories: list[str] | Unset = UNSET
    blocked_categories: list[str] | Unset = UNSET
    spending_limits: list[CardListItemSpendingControlsSpendingLimitsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channels: dict[str, Any] | Unset = UNSET
        if not isinstance(self.channels, Unset):
            channels = self.channels.to_dict()

        allowed_categories: list[str] | Unset = UNSET
        if not isinstance(self.allowed_categories, Unset):
            allowed_categories = self.allowed_categories

        blocked_categories: list[str] | Unset = UNSET
        if not isinstance(self.blocked_categories, Unset):
            blocked_categories = self.blocked_categories

        spending_limits: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.spending_limits, Unset):
            spending_limits = []
            for spending_limits_item_data in self.spending_limits:
                spending_limits_item = spending_limits_item_data.to_dict()
                spending_limits.append(spending_limits_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if channels is not UNSET:
            field_dict["channels"] = channels
        if allowed_categories is not UNSET:
            field_dict["allowedCategories"] = allowed_categories
        if blocked_categories is not UNSET:
            field_dict["blockedCategories"] = blocked_categories
        if spending_limits is not UNSET:
            field_dict["spendingLimits"] = spending_limits

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_list_item_spending_controls_channels import CardListItemSpendingControlsChannels  # noqa: PLC0415
        from ..models.card_list_item_spending_controls_spending_limits_item import (
            CardListItemSpendingControlsSpendingLimitsItem,  # noqa: PLC0415
        )

        d = dict(src_dict)
        _channels = d.pop("channels", UNSET)
        channels: CardListItemSpendingControlsChannels | Unset
        if isinstance(_channels, Unset):
            channels = UNSET
        else:
            channels = CardListItemSpendingControlsChannels.from_dict(_channels)

        allowed_categories = cast(list[str], d.pop("allowedCategories", UNSET))

        blocked_categories = cast(list[str], d.pop("blockedCategories", UNSET))

        _spending_limits = d.pop("spendingLimits", UNSET)
        spending_limits: list[CardListItemSpendingControlsSpendingLimitsItem] | Unset = UNSET
        if _spending_limits is not UNSET:
            spending_limits = []
            for spending_limits_item_data in _spending_limits:
                spending_limits_item = CardListItemSpendingControlsSpendingLimitsItem.from_dict(
                    spending_limits_item_data
                )

                spending_limits.append(spending_limits_item)

        card_list_item_spending_controls = cls(
            channels=channels,
            allowed_categories=allowed_categories,
            blocked_categories=blocked_categories,
            spending_limits=spending_limits,
        )

        card_list_item_spending_controls.additional_properties = d
        return card_list_item_spending_controls

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
