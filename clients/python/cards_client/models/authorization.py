from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.authorization_channel import AuthorizationChannel
from ..models.authorization_decline_reason_type_1 import AuthorizationDeclineReasonType1
from ..models.authorization_decline_reason_type_2_type_1 import AuthorizationDeclineReasonType2Type1
from ..models.authorization_decline_reason_type_3_type_1 import AuthorizationDeclineReasonType3Type1
from ..models.authorization_status import AuthorizationStatus

if TYPE_CHECKING:
    from ..models.decision import Decision
    from ..models.merchant import Merchant


T = TypeVar("T", bound="Authorization")


@_attrs_define
class Authorization:
    """
    Attributes:
        field_id (str):
        card_id (str):
        card_holder_id (str):
        amount (float):
        currency (str):
        channel (AuthorizationChannel):
        merchant (Merchant):
        approved (bool):
        status (AuthorizationStatus):
        decline_reason (AuthorizationDeclineReasonType1 | AuthorizationDeclineReasonType2Type1 |
            AuthorizationDeclineReasonType3Type1 | None):
        pending_amount (float):
        captured_amount (float):
        reversed_amount (float):
        refunded_amount (float):
        expires_at (datetime.datetime):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        requested_amount (float): What was asked (and incremented); more than `amount` after a partial approval.
        decision (Decision | None):
    """

    field_id: str
    card_id: str
    card_holder_id: str
    amount: float
    currency: str
    channel: AuthorizationChannel
    merchant: Merchant
    approved: bool
    status: AuthorizationStatus
    decline_reason: (
        AuthorizationDeclineReasonType1
        | AuthorizationDeclineReasonType2Type1
        | AuthorizationDeclineReasonType3Type1
        | None
    )
    pending_amount: float
    captured_amount: float
    reversed_amount: float
    refunded_amount: float
    expires_at: datetime.datetime
    created_at: datetime.datetime
    updated_at: datetime.datetime
    requested_amount: float
    decision: Decision | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.decision import Decision  # noqa: PLC0415

        field_id = self.field_id

        card_id = self.card_id

        card_holder_id = self.card_holder_id

        amount = self.amount

        currency = self.currency

        channel = self.channel.value

        merchant = self.merchant.to_dict()

        approved = self.approved

        status = self.status.value

        decline_reason: None | str
        if isinstance(self.decline_reason, AuthorizationDeclineReasonType1):
            decline_reason = self.decline_reason.value
        elif isinstance(self.decline_reason, AuthorizationDeclineReasonType2Type1):
            decline_reason = self.decline_reason.value
        elif isinstance(self.decline_reason, AuthorizationDeclineReasonType3Type1):
            decline_reason = self.decline_reason.value
        else:
            decline_reason = self.decline_reason

        pending_amount = self.pending_amount

        captured_amount = self.captured_amount

        reversed_amount = self.reversed_amount

        refunded_amount = self.refunded_amount

        expires_at = self.expires_at.isoformat()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        requested_amount = self.requested_amount

        decision: dict[str, Any] | None
        if isinstance(self.decision, Decision):
            decision = self.decision.to_dict()
        else:
            decision = self.decision

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "cardId": card_id,
                "cardHolderId": card_holder_id,
                "amount": amount,
                "currency": currency,
                "channel": channel,
                "merchant": merchant,
                "approved": approved,
                "status": status,
                "declineReason": decline_reason,
                "pendingAmount": pending_amount,
                "capturedAmount": captured_amount,
                "reversedAmount": reversed_amount,
                "refundedAmount": refunded_amount,
                "expiresAt": expires_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "requestedAmount": requested_amount,
                "decision": decision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision import Decision  # noqa: PLC0415
        from ..models.merchant import Merchant  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id")

        card_id = d.pop("cardId")

        card_holder_id = d.pop("cardHolderId")

        amount = d.pop("amount")

        currency = d.pop("currency")

        channel = AuthorizationChannel(d.pop("channel"))

        merchant = Merchant.from_dict(d.pop("merchant"))

        approved = d.pop("approved")

        status = AuthorizationStatus(d.pop("status"))

        def _parse_decline_reason(
            data: object,
        ) -> (
            AuthorizationDeclineReasonType1
            | AuthorizationDeclineReasonType2Type1
            | AuthorizationDeclineReasonType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_type_1 = AuthorizationDeclineReasonType1(data)

                return decline_reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_type_2_type_1 = AuthorizationDeclineReasonType2Type1(data)

                return decline_reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_type_3_type_1 = AuthorizationDeclineReasonType3Type1(data)

                return decline_reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AuthorizationDeclineReasonType1
                | AuthorizationDeclineReasonType2Type1
                | AuthorizationDeclineReasonType3Type1
                | None,
                data,
            )

        decline_reason = _parse_decline_reason(d.pop("declineReason"))

        pending_amount = d.pop("pendingAmount")

        captured_amount = d.pop("capturedAmount")

        reversed_amount = d.pop("reversedAmount")

        refunded_amount = d.pop("refundedAmount")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        requested_amount = d.pop("requestedAmount")

        def _parse_decision(data: object) -> Decision | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decision_type_0 = Decision.from_dict(data)

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Decision | None, data)

        decision = _parse_decision(d.pop("decision"))

        authorization = cls(
            field_id=field_id,
            card_id=card_id,
            card_holder_id=card_holder_id,
            amount=amount,
            currency=currency,
            channel=channel,
            merchant=merchant,
            approved=approved,
            status=status,
            decline_reason=decline_reason,
            pending_amount=pending_amount,
            captured_amount=captured_amount,
            reversed_amount=reversed_amount,
            refunded_amount=refunded_amount,
            expires_at=expires_at,
            created_at=created_at,
            updated_at=updated_at,
            requested_amount=requested_amount,
            decision=decision,
        )

        authorization.additional_properties = d
        return authorization

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
