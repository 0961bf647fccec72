from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dispute_reason import DisputeReason
from ..models.dispute_status import DisputeStatus

T = TypeVar("T", bound="Dispute")


@_attrs_define
class Dispute:
    """
    Attributes:
        field_id (str):
        card_id (str):
        transaction_id (str):
        authorization_id (str):
        amount (float):
        currency (str):
        reason (DisputeReason):
        explanation (None | str):
        status (DisputeStatus):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    field_id: str
    card_id: str
    transaction_id: str
    authorization_id: str
    amount: float
    currency: str
    reason: DisputeReason
    explanation: None | str
    status: DisputeStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        card_id = self.card_id

        transaction_id = self.transaction_id

        authorization_id = self.authorization_id

        amount = self.amount

        currency = self.currency

        reason = self.reason.value

        explanation: None | str
        explanation = self.explanation

        status = self.status.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "cardId": card_id,
                "transactionId": transaction_id,
                "authorizationId": authorization_id,
                "amount": amount,
                "currency": currency,
                "reason": reason,
                "explanation": explanation,
                "status": status,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id")

        card_id = d.pop("cardId")

        transaction_id = d.pop("transactionId")

        authorization_id = d.pop("authorizationId")

        amount = d.pop("amount")

        currency = d.pop("currency")

        reason = DisputeReason(d.pop("reason"))

        def _parse_explanation(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        explanation = _parse_explanation(d.pop("explanation"))

        status = DisputeStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        dispute = cls(
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

        dispute.additional_properties = d
        return dispute

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
