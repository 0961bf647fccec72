from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_event_action import AuditEventAction
from ..models.audit_event_outcome import AuditEventOutcome

T = TypeVar("T", bound="AuditEvent")


@_attrs_define
class AuditEvent:
    """
    Attributes:
        field_id (str):
        action (AuditEventAction):
        outcome (AuditEventOutcome):
        error (None | str): The error code of a refusal.
        key_id (str): The id of the key that asked (never the key).
        card_id (None | str):
        subject_key_id (None | str): The key created or revoked.
        request_id (None | str):
        address (None | str): The caller's address as the host saw it.
        created_at (datetime.datetime):
    """

    field_id: str
    action: AuditEventAction
    outcome: AuditEventOutcome
    error: None | str
    key_id: str
    card_id: None | str
    subject_key_id: None | str
    request_id: None | str
    address: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        action = self.action.value

        outcome = self.outcome.value

        error: None | str
        error = self.error

        key_id = self.key_id

        card_id: None | str
        card_id = self.card_id

        subject_key_id: None | str
        subject_key_id = self.subject_key_id

        request_id: None | str
        request_id = self.request_id

        address: None | str
        address = self.address

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "action": action,
                "outcome": outcome,
                "error": error,
                "keyId": key_id,
                "cardId": card_id,
                "subjectKeyId": subject_key_id,
                "requestId": request_id,
                "address": address,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id")

        action = AuditEventAction(d.pop("action"))

        outcome = AuditEventOutcome(d.pop("outcome"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        key_id = d.pop("keyId")

        def _parse_card_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        card_id = _parse_card_id(d.pop("cardId"))

        def _parse_subject_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject_key_id = _parse_subject_key_id(d.pop("subjectKeyId"))

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("requestId"))

        def _parse_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        address = _parse_address(d.pop("address"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        audit_event = cls(
            field_id=field_id,
            action=action,
            outcome=outcome,
            error=error,
            key_id=key_id,
            card_id=card_id,
            subject_key_id=subject_key_id,
            request_id=request_id,
            address=address,
            created_at=created_at,
        )

        audit_event.additional_properties = d
        return audit_event

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
