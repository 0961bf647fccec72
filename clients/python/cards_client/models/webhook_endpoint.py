from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_status import WebhookEndpointStatus

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        field_id (str):
        url (str):
        enabled_events (list[str]):
        description (None | str):
        status (WebhookEndpointStatus):
        secret (None | str): `whsec_` + base64 of 32 bytes: in the answers of creation and rotation only, else null.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    field_id: str
    url: str
    enabled_events: list[str]
    description: None | str
    status: WebhookEndpointStatus
    secret: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        url = self.url

        enabled_events = self.enabled_events

        description: None | str
        description = self.description

        status = self.status.value

        secret: None | str
        secret = self.secret

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "url": url,
                "enabledEvents": enabled_events,
                "description": description,
                "status": status,
                "secret": secret,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id")

        url = d.pop("url")

        enabled_events = cast(list[str], d.pop("enabledEvents"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        status = WebhookEndpointStatus(d.pop("status"))

        def _parse_secret(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        secret = _parse_secret(d.pop("secret"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        webhook_endpoint = cls(
            field_id=field_id,
            url=url,
            enabled_events=enabled_events,
            description=description,
            status=status,
            secret=secret,
            created_at=created_at,
            updated_at=updated_at,
        )

        webhook_endpoint.additional_properties = d
        return webhook_endpoint

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
