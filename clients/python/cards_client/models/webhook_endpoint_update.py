from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_endpoint_update_enabled_events_type_0_item import WebhookEndpointUpdateEnabledEventsType0Item
from ..models.webhook_endpoint_update_status_type_0 import WebhookEndpointUpdateStatusType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointUpdate")


@_attrs_define
class WebhookEndpointUpdate:
    """
    Attributes:
        url (None | str | Unset):
        enabled_events (list[WebhookEndpointUpdateEnabledEventsType0Item] | None | Unset):
        description (None | str | Unset):
        status (None | Unset | WebhookEndpointUpdateStatusType0):
    """

    url: None | str | Unset = UNSET
    enabled_events: list[WebhookEndpointUpdateEnabledEventsType0Item] | None | Unset = UNSET
    description: None | str | Unset = UNSET
    status: None | Unset | WebhookEndpointUpdateStatusType0 = UNSET

    def to_dict(self) -> dict[str, Any]:
        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        enabled_events: list[str] | None | Unset
        if isinstance(self.enabled_events, Unset):
            enabled_events = UNSET
        elif isinstance(self.enabled_events, list):
            enabled_events = []
            for enabled_events_type_0_item_data in self.enabled_events:
                enabled_events_type_0_item = enabled_events_type_0_item_data.value
                enabled_events.append(enabled_events_type_0_item)

        else:
            enabled_events = self.enabled_events

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, WebhookEndpointUpdateStatusType0):
            status = self.status.value
        else:
            status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if enabled_events is not UNSET:
            field_dict["enabledEvents"] = enabled_events
        if description is not UNSET:
            field_dict["description"] = description
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_enabled_events(data: object) -> list[WebhookEndpointUpdateEnabledEventsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                enabled_events_type_0 = []
                _enabled_events_type_0 = data
                for enabled_events_type_0_item_data in _enabled_events_type_0:
                    enabled_events_type_0_item = WebhookEndpointUpdateEnabledEventsType0Item(
                        enabled_events_type_0_item_data
                    )

                    enabled_events_type_0.append(enabled_events_type_0_item)

                return enabled_events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookEndpointUpdateEnabledEventsType0Item] | None | Unset, data)

        enabled_events = _parse_enabled_events(d.pop("enabledEvents", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_status(data: object) -> None | Unset | WebhookEndpointUpdateStatusType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = WebhookEndpointUpdateStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WebhookEndpointUpdateStatusType0, data)

        status = _parse_status(d.pop("status", UNSET))

        webhook_endpoint_update = cls(
            url=url,
            enabled_events=enabled_events,
            description=description,
            status=status,
        )

        return webhook_endpoint_update
