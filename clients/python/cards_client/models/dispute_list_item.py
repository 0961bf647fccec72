from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dispute_list_item_reason import DisputeListItemReason
from ..models.dispute_list_item_status import DisputeListItemStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="DisputeListItem")


@_attrs_define
class DisputeListItem:
    """
    Attributes:
        field_id (str | Unset):
        card_id (str | Unset):
        transaction_id (str | Unset):
        authorization_id (str | Unset):
        amount (float | Unset):
        currency (str | Unset):
        reason (DisputeListItemReason | Unset):
        explanation (None | str | Unset):
        status (DisputeListItemStatus | Unset):
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    card_id: str | Unset = UNSET
    transaction_id: str | Unset = UNSET
    authorization_id: str | Unset = UNSET
    amount: float | Unset = UNSET
    currency: str | Unset = UNSET
    reason: DisputeListItemReason | Unset = UNSET
    explanation: None | str | Unset = UNSET
    status: DisputeListItemStatus | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        card_id = self.card_id

        transaction_id = self.transaction_id

        authorization_id = self.authorization_id

        amount = self.amount

        currency = self.currency

        reason: str | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.value

        explanation: None | str | Unset
        if isinstance(self.explanation, Unset):
            explanation = UNSET
        else:
            explanation = self.explanation

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

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
        if card_id is not UNSET:
            field_dict["cardId"] = card_id
        if transaction_id is not UNSET:
            field_dict["transactionId"] = transaction_id
        if authorization_id is not UNSET:
            field_dict["authorizationId"] = authorization_id
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if reason is not UNSET:
            field_dict["reason"] = reason
        if explanation is not UNSET:
            field_dict["explanation"] = explanation
        if status is not UNSET:
            field_dict["status"] = status
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        card_id = d.pop("cardId", UNSET)

        transaction_id = d.pop("transactionId", UNSET)

        authorization_id = d.pop("authorizationId", UNSET)

        amount = d.pop("amount", UNSET)

        currency = d.pop("currency", UNSET)

        _reason = d.pop("reason", UNSET)
        reason: DisputeListItemReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = DisputeListItemReason(_reason)

        def _parse_explanation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        explanation = _parse_explanation(d.pop("explanation", UNSET))

        _status = d.pop("status", UNSET)
        status: DisputeListItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = DisputeListItemStatus(_status)

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

        dispute_list_item = cls(
            field_id=field_id,
            card_id=card_id,
            transaction_id=transaction_id,
            authorization_id=authorization_id,
            amount=amount,
            currency=currency,
            reason=reason,
            explanation=explanation,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
        )

        dispute_list_item.additional_properties = d
        return dispute_list_item

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
