from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_event_list_item_action import AuditEventListItemAction
from ..models.audit_event_list_item_outcome import AuditEventListItemOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditEventListItem")


@_attrs_define
class AuditEventListItem:
    """
    Attributes:
        field_id (str | Unset):
        action (AuditEventListItemAction | Unset):
        outcome (AuditEventListItemOutcome | Unset):
        error (None | str | Unset): The error code of a refusal.
        key_id (str | Unset): The id of the key that asked (never the key).
        card_id (None | str | Unset):
        subject_key_id (None | str | Unset): The key created or revoked.
        request_id (None | str | Unset):
        address (None | str | Unset): The caller's address as the host saw it.
        created_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    action: AuditEventListItemAction | Unset = UNSET
    outcome: AuditEventListItemOutcome | Unset = UNSET
    error: None | str | Unset = UNSET
    key_id: str | Unset = UNSET
    card_id: None | str | Unset = UNSET
    subject_key_id: None | str | Unset = UNSET
    request_id: None | str | Unset = UNSET
    address: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        action: str | Unset = UNSET
        if not isinstance(self.action, Unset):
            action = self.action.value

        outcome: str | Unset = UNSET
        if not isinstance(self.outcome, Unset):
            outcome = self.outcome.value

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        key_id = self.key_id

        card_id: None | str | Unset
        if isinstance(self.card_id, Unset):
            card_id = UNSET
        else:
            card_id = self.card_id

        subject_key_id: None | str | Unset
        if isinstance(self.subject_key_id, Unset):
            subject_key_id = UNSET
        else:
            subject_key_id = self.subject_key_id

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if action is not UNSET:
            field_dict["action"] = action
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if error is not UNSET:
            field_dict["error"] = error
        if key_id is not UNSET:
            field_dict["keyId"] = key_id
        if card_id is not UNSET:
            field_dict["cardId"] = card_id
        if subject_key_id is not UNSET:
            field_dict["subjectKeyId"] = subject_key_id
        if request_id is not UNSET:
            field_dict["requestId"] = request_id
        if address is not UNSET:
            field_dict["address"] = address
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        _action = d.pop("action", UNSET)
        action: AuditEventListItemAction | Unset
        if isinstance(_action, Unset):
            action = UNSET
        else:
            action = AuditEventListItemAction(_action)

        _outcome = d.pop("outcome", UNSET)
        outcome: AuditEventListItemOutcome | Unset
        if isinstance(_outcome, Unset):
            outcome = UNSET
        else:
            outcome = AuditEventListItemOutcome(_outcome)

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        key_id = d.pop("keyId", UNSET)

        def _parse_card_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        card_id = _parse_card_id(d.pop("cardId", UNSET))

        def _parse_subject_key_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject_key_id = _parse_subject_key_id(d.pop("subjectKeyId", UNSET))

        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))

        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        audit_event_list_item = cls(
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

        audit_event_list_item.additional_properties = d
        return audit_event_list_item

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
