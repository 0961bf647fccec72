from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_endpoint_list_item_status import WebhookEndpointListItemStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookEndpointListItem")


@_attrs_define
class WebhookEndpointListItem:
    """
    Attributes:
        field_id (str | Unset):
        url (str | Unset):
        enabled_events (list[str] | Unset):
        description (None | str | Unset):
        status (WebhookEndpointListItemStatus | Unset):
        secret (None | str | Unset): `whsec_` + base64 of 32 bytes: in the answers of creation and rotation only, else
            null.
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    url: str | Unset = UNSET
    enabled_events: list[str] | Unset = UNSET
    description: None | str | Unset = UNSET
    status: WebhookEndpointListItemStatus | Unset = UNSET
    secret: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        url = self.url

        enabled_events: list[str] | Unset = UNSET
        if not isinstance(self.enabled_events, Unset):
            enabled_events = self.enabled_events

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if url is not UNSET:
            field_dict["url"] = url
        if enabled_events is not UNSET:
            field_dict["enabledEvents"] = enabled_events
        if description is not UNSET:
            field_dict["description"] = description
        if status is not UNSET:
            field_dict["status"] = status
        if secret is not UNSET:
            field_dict["secret"] = secret
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        url = d.pop("url", UNSET)

        enabled_events = cast(list[str], d.pop("enabledEvents", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _status = d.pop("status", UNSET)
        status: WebhookEndpointListItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = WebhookEndpointListItemStatus(_status)

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updatedAt", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        webhook_endpoint_list_item = cls(
            field_id=field_id,
            url=url,
            enabled_events=enabled_events,
            description=description,
            status=status,
            secret=secret,
            created_at=created_at,
            updated_at=updated_at,
        )

        webhook_endpoint_list_item.additional_properties = d
        return webhook_endpoint_list_item

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
