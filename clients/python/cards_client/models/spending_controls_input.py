from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.spending_controls_input_channels_type_0 import SpendingControlsInputChannelsType0
    from ..models.spending_controls_input_spending_limits_type_0_item import (
        SpendingControlsInputSpendingLimitsType0Item,
    )


T = TypeVar("T", bound="SpendingControlsInput")


@_attrs_define
class SpendingControlsInput:
    """Allowed and blocked categories cannot both be non-empty.

    Attributes:
        channels (None | SpendingControlsInputChannelsType0 | Unset):
        allowed_categories (list[str] | None | Unset):
        blocked_categories (list[str] | None | Unset):
        spending_limits (list[SpendingControlsInputSpendingLimitsType0Item] | None | Unset):
    """

    channels: None | SpendingControlsInputChannelsType0 | Unset = UNSET
    allowed_categories: list[str] | None | Unset = UNSET
    blocked_categories: list[str] | None | Unset = UNSET
    spending_limits: list[SpendingControlsInputSpendingLimitsType0Item] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.spending_controls_input_channels_type_0 import SpendingControlsInputChannelsType0  # noqa: PLC0415

        channels: dict[str, Any] | None | Unset
        if isinstance(self.channels, Unset):
            channels = UNSET
        elif isinstance(self.channels, SpendingControlsInputChannelsType0):
            channels = self.channels.to_dict()
        else:
            channels = self.channels

        allowed_categories: list[str] | None | Unset
        if isinstance(self.allowed_categories, Unset):
            allowed_categories = UNSET
        elif isinstance(self.allowed_categories, list):
            allowed_categories = self.allowed_categories

        else:
            allowed_categories = self.allowed_categories

        blocked_categories: list[str] | None | Unset
        if isinstance(self.blocked_categories, Unset):
            blocked_categories = UNSET
        elif isinstance(self.blocked_categories, list):
            blocked_categories = self.blocked_categories

        else:
            blocked_categories = self.blocked_categories

        spending_limits: list[dict[str, Any]] | None | Unset
        if isinstance(self.spending_limits, Unset):
            spending_limits = UNSET
        elif isinstance(self.spending_limits, list):
            spending_limits = []
            for spending_limits_type_0_item_data in self.spending_limits:
                spending_limits_type_0_item = spending_limits_type_0_item_data.to_dict()
                spending_limits.append(spending_limits_type_0_item)

        else:
            spending_limits = self.spending_limits

        field_dict: dict[str, Any] = {}

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
        from ..models.spending_controls_input_channels_type_0 import SpendingControlsInputChannelsType0  # noqa: PLC0415
        from ..models.spending_controls_input_spending_limits_type_0_item import (
            SpendingControlsInputSpendingLimitsType0Item,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_channels(data: object) -> None | SpendingControlsInputChannelsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                channels_type_0 = SpendingControlsInputChannelsType0.from_dict(data)

                return channels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpendingControlsInputChannelsType0 | Unset, data)

        channels = _parse_channels(d.pop("channels", UNSET))

        def _parse_allowed_categories(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_categories_type_0 = cast(list[str], data)

                return allowed_categories_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_categories = _parse_allowed_categories(d.pop("allowedCategories", UNSET))

        def _parse_blocked_categories(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                blocked_categories_type_0 = cast(list[str], data)

                return blocked_categories_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        blocked_categories = _parse_blocked_categories(d.pop("blockedCategories", UNSET))

        def _parse_spending_limits(data: object) -> list[SpendingControlsInputSpendingLimitsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                spending_limits_type_0 = []
                _spending_limits_type_0 = data
                for spending_limits_type_0_item_data in _spending_limits_type_0:
                    spending_limits_type_0_item = SpendingControlsInputSpendingLimitsType0Item.from_dict(
                        spending_limits_type_0_item_data
                    )

                    spending_limits_type_0.append(spending_limits_type_0_item)

                return spending_limits_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[SpendingControlsInputSpendingLimitsType0Item] | None | Unset, data)

        spending_limits = _parse_spending_limits(d.pop("spendingLimits", UNSET))

        spending_controls_input = cls(
            channels=channels,
            allowed_categories=allowed_categories,
            blocked_categories=blocked_categories,
            spending_limits=spending_limits,
        )

        return spending_controls_input
