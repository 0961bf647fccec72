from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.spending_controls_channels import SpendingControlsChannels
    from ..models.spending_controls_spending_limits_item import SpendingControlsSpendingLimitsItem


T = TypeVar("T", bound="SpendingControls")


@_attrs_define
class SpendingControls:
    """
    Attributes:
        channels (SpendingControlsChannels):
        allowed_categories (list[str]):
        blocked_categories (list[str]):
        spending_limits (list[SpendingControlsSpendingLimitsItem]):
    """

    channels: SpendingControlsChannels
    allowed_categories: list[str]
    blocked_categories: list[str]
    spending_limits: list[SpendingControlsSpendingLimitsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channels = self.channels.to_dict()

        allowed_categories = self.allowed_categories

        blocked_categories = self.blocked_categories

        spending_limits = []
        for spending_limits_item_data in self.spending_limits:
            spending_limits_item = spending_limits_item_data.to_dict()
            spending_limits.append(spending_limits_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "channels": channels,
                "allowedCategories": allowed_categories,
                "blockedCategories": blocked_categories,
                "spendingLimits": spending_limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spending_controls_channels import SpendingControlsChannels  # noqa: PLC0415
        from ..models.spending_controls_spending_limits_item import SpendingControlsSpendingLimitsItem  # noqa: PLC0415

        d = dict(src_dict)
        channels = SpendingControlsChannels.from_dict(d.pop("channels"))

        allowed_categories = cast(list[str], d.pop("allowedCategories"))

        blocked_categories = cast(list[str], d.pop("blockedCategories"))

        spending_limits = []
        _spending_limits = d.pop("spendingLimits")
        for spending_limits_item_data in _spending_limits:
            spending_limits_item = SpendingControlsSpendingLimitsItem.from_dict(spending_limits_item_data)

            spending_limits.append(spending_limits_item)

        spending_controls = cls(
            channels=channels,
            allowed_categories=allowed_categories,
            blocked_categories=blocked_categories,
            spending_limits=spending_limits,
        )

        spending_controls.additional_properties = d
        return spending_controls

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
