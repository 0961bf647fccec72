from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_delivery_status import WebhookDeliveryStatus

if TYPE_CHECKING:
    from ..models.webhook_attempt import WebhookAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        field_id (str):
        endpoint_id (str):
        event_id (str): The `webhook-id` header of every attempt.
        event_type (str):
        status (WebhookDeliveryStatus):
        attempts (list[WebhookAttempt]):
        next_attempt_at (datetime.datetime | None):
        created_at (datetime.datetime):
    """

    field_id: str
    endpoint_id: str
    event_id: str
    event_type: str
    status: WebhookDeliveryStatus
    attempts: list[WebhookAttempt]
    next_attempt_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type = self.event_type

        status = self.status.value

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "endpointId": endpoint_id,
                "eventId": event_id,
                "eventType": event_type,
                "status": status,
                "attempts": attempts,
                "nextAttemptAt": next_attempt_at,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_attempt import WebhookAttempt  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id")

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        event_type = d.pop("eventType")

        status = WebhookDeliveryStatus(d.pop("status"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = WebhookAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        webhook_delivery = cls(
            field_id=field_id,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

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
