from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_delivery_list_item_status import WebhookDeliveryListItemStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_delivery_list_item_attempts_item import WebhookDeliveryListItemAttemptsItem


T = TypeVar("T", bound="WebhookDeliveryListItem")


@_attrs_define
class WebhookDeliveryListItem:
    """
    Attributes:
        field_id (str | Unset):
        endpoint_id (str | Unset):
        event_id (str | Unset): The `webhook-id` header of every attempt.
        event_type (str | Unset):
        status (WebhookDeliveryListItemStatus | Unset):
        attempts (list[WebhookDeliveryListItemAttemptsItem] | Unset):
        next_attempt_at (datetime.datetime | None | Unset):
        created_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    endpoint_id: str | Unset = UNSET
    event_id: str | Unset = UNSET
    event_type: str | Unset = UNSET
    status: WebhookDeliveryListItemStatus | Unset = UNSET
    attempts: list[WebhookDeliveryListItemAttemptsItem] | Unset = UNSET
    next_attempt_at: datetime.datetime | None | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type = self.event_type

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        attempts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attempts, Unset):
            attempts = []
            for attempts_item_data in self.attempts:
                attempts_item = attempts_item_data.to_dict()
                attempts.append(attempts_item)

        next_attempt_at: None | str | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        elif isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if endpoint_id is not UNSET:
            field_dict["endpointId"] = endpoint_id
        if event_id is not UNSET:
            field_dict["eventId"] = event_id
        if event_type is not UNSET:
            field_dict["eventType"] = event_type
        if status is not UNSET:
            field_dict["status"] = status
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if next_attempt_at is not UNSET:
            field_dict["nextAttemptAt"] = next_attempt_at
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery_list_item_attempts_item import WebhookDeliveryListItemAttemptsItem  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        endpoint_id = d.pop("endpointId", UNSET)

        event_id = d.pop("eventId", UNSET)

        event_type = d.pop("eventType", UNSET)

        _status = d.pop("status", UNSET)
        status: WebhookDeliveryListItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = WebhookDeliveryListItemStatus(_status)

        _attempts = d.pop("attempts", UNSET)
        attempts: list[WebhookDeliveryListItemAttemptsItem] | Unset = UNSET
        if _attempts is not UNSET:
            attempts = []
            for attempts_item_data in _attempts:
                attempts_item = WebhookDeliveryListItemAttemptsItem.from_dict(attempts_item_data)

                attempts.append(attempts_item)

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt", UNSET))

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        webhook_delivery_list_item = cls(
            field_id=field_id,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
        )

        webhook_delivery_list_item.additional_properties = d
        return webhook_delivery_list_item

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
