from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_endpoint_create_enabled_events_type_0_item import WebhookEndpointCreateEnabledEventsType0Item
from ..models.webhook_endpoint_create_enabled_events_type_1_item import WebhookEndpointCreateEnabledEventsType1Item
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointCreate")


@_attrs_define
class WebhookEndpointCreate:
    """
    Attributes:
        url (str): https:// anywhere; http:// only to loopback. Link-local and cloud metadata addresses are refused,
            private ranges unless the operator allows them.
        enabled_events (list[WebhookEndpointCreateEnabledEventsType0Item] |
            list[WebhookEndpointCreateEnabledEventsType1Item]): Event types, or ["*"] for every type (alone). Duplicates are
            dropped.
        description (None | str | Unset):
    """

    url: str
    enabled_events: (
        list[WebhookEndpointCreateEnabledEventsType0Item] | list[WebhookEndpointCreateEnabledEventsType1Item]
    )
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        enabled_events: list[str]
        if isinstance(self.enabled_events, list):
            enabled_events = []
            for enabled_events_type_0_item_data in self.enabled_events:
                enabled_events_type_0_item = enabled_events_type_0_item_data.value
                enabled_events.append(enabled_events_type_0_item)

        else:
            enabled_events = []
            for enabled_events_type_1_item_data in self.enabled_events:
                enabled_events_type_1_item = enabled_events_type_1_item_data.value
                enabled_events.append(enabled_events_type_1_item)

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "enabledEvents": enabled_events,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_enabled_events(
            data: object,
        ) -> list[WebhookEndpointCreateEnabledEventsType0Item] | list[WebhookEndpointCreateEnabledEventsType1Item]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                enabled_events_type_0 = []
                _enabled_events_type_0 = data
                for enabled_events_type_0_item_data in _enabled_events_type_0:
                    enabled_events_type_0_item = WebhookEndpointCreateEnabledEventsType0Item(
                        enabled_events_type_0_item_data
                    )

                    enabled_events_type_0.append(enabled_events_type_0_item)

                return enabled_events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            enabled_events_type_1 = []
            _enabled_events_type_1 = data
            for enabled_events_type_1_item_data in _enabled_events_type_1:
                enabled_events_type_1_item = WebhookEndpointCreateEnabledEventsType1Item(
                    enabled_events_type_1_item_data
                )

                enabled_events_type_1.append(enabled_events_type_1_item)

            return enabled_events_type_1

        enabled_events = _parse_enabled_events(d.pop("enabledEvents"))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        webhook_endpoint_create = cls(
            url=url,
            enabled_events=enabled_events,
            description=description,
        )

        return webhook_endpoint_create
