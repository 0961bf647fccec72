from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.authorization_list_item_channel import AuthorizationListItemChannel
from ..models.authorization_list_item_decline_reason_type_1 import AuthorizationListItemDeclineReasonType1
from ..models.authorization_list_item_decline_reason_type_2_type_1 import AuthorizationListItemDeclineReasonType2Type1
from ..models.authorization_list_item_decline_reason_type_3_type_1 import AuthorizationListItemDeclineReasonType3Type1
from ..models.authorization_list_item_status import AuthorizationListItemStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.authorization_list_item_decision_type_0 import AuthorizationListItemDecisionType0
    from ..models.authorization_list_item_merchant import AuthorizationListItemMerchant


T = TypeVar("T", bound="AuthorizationListItem")


@_attrs_define
class AuthorizationListItem:
    """
    Attributes:
        field_id (str | Unset):
        card_id (str | Unset):
        card_holder_id (str | Unset):
        amount (float | Unset):
        currency (str | Unset):
        channel (AuthorizationListItemChannel | Unset):
        merchant (AuthorizationListItemMerchant | Unset):
        approved (bool | Unset):
        status (AuthorizationListItemStatus | Unset):
        decline_reason (AuthorizationListItemDeclineReasonType1 | AuthorizationListItemDeclineReasonType2Type1 |
            AuthorizationListItemDeclineReasonType3Type1 | None | Unset):
        pending_amount (float | Unset):
        captured_amount (float | Unset):
        reversed_amount (float | Unset):
        refunded_amount (float | Unset):
        expires_at (datetime.datetime | Unset):
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
        requested_amount (float | Unset): What was asked (and incremented); more than `amount` after a partial approval.
        decision (AuthorizationListItemDecisionType0 | None | Unset):
    """

    field_id: str | Unset = UNSET
    card_id: str | Unset = UNSET
    card_holder_id: str | Unset = UNSET
    amount: float | Unset = UNSET
    currency: str | Unset = UNSET
    channel: AuthorizationListItemChannel | Unset = UNSET
    merchant: AuthorizationListItemMerchant | Unset = UNSET
    approved: bool | Unset = UNSET
    status: AuthorizationListItemStatus | Unset = UNSET
    decline_reason: (
        AuthorizationListItemDeclineReasonType1
        | AuthorizationListItemDeclineReasonType2Type1
        | AuthorizationListItemDeclineReasonType3Type1
        | None
        | Unset
    ) = UNSET
    pending_amount: float | Unset = UNSET
    captured_amount: float | Unset = UNSET
    reversed_amount: float | Unset = UNSET
    refunded_amount: float | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    requested_amount: float | Unset = UNSET
    decision: AuthorizationListItemDecisionType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.authorization_list_item_decision_type_0 import AuthorizationListItemDecisionType0  # noqa: PLC0415

        field_id = self.field_id

        card_id = self.card_id

        card_holder_id = self.card_holder_id

        amount = self.amount

        currency = self.currency

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        merchant: dict[str, Any] | Unset = UNSET
        if not isinstance(self.merchant, Unset):
            merchant = self.merchant.to_dict()

        approved = self.approved

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        decline_reason: None | str | Unset
        if isinstance(self.decline_reason, Unset):
            decline_reason = UNSET
        elif isinstance(self.decline_reason, AuthorizationListItemDeclineReasonType1):
            decline_reason = self.decline_reason.value
        elif isinstance(self.decline_reason, AuthorizationListItemDeclineReasonType2Type1):
            decline_reason = self.decline_reason.value
        elif isinstance(self.decline_reason, AuthorizationListItemDeclineReasonType3Type1):
            decline_reason = self.decline_reason.value
        else:
            decline_reason = self.decline_reason

        pending_amount = self.pending_amount

        captured_amount = self.captured_amount

        reversed_amount = self.reversed_amount

        refunded_amount = self.refunded_amount

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        requested_amount = self.requested_amount

        decision: dict[str, Any] | None | Unset
        if isinstance(self.decision, Unset):
            decision = UNSET
        elif isinstance(self.decision, AuthorizationListItemDecisionType0):
            decision = self.decision.to_dict()
        else:
            decision = self.decision

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if card_id is not UNSET:
            field_dict["cardId"] = card_id
        if card_holder_id is not UNSET:
            field_dict["cardHolderId"] = card_holder_id
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if channel is not UNSET:
            field_dict["channel"] = channel
        if merchant is not UNSET:
            field_dict["merchant"] = merchant
        if approved is not UNSET:
            field_dict["approved"] = approved
        if status is not UNSET:
            field_dict["status"] = status
        if decline_reason is not UNSET:
            field_dict["declineReason"] = decline_reason
        if pending_amount is not UNSET:
            field_dict["pendingAmount"] = pending_amount
        if captured_amount is not UNSET:
            field_dict["capturedAmount"] = captured_amount
        if reversed_amount is not UNSET:
            field_dict["reversedAmount"] = reversed_amount
        if refunded_amount is not UNSET:
            field_dict["refundedAmount"] = refunded_amount
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at
        if requested_amount is not UNSET:
            field_dict["requestedAmount"] = requested_amount
        if decision is not UNSET:
            field_dict["decision"] = decision

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.authorization_list_item_decision_type_0 import AuthorizationListItemDecisionType0  # noqa: PLC0415
        from ..models.authorization_list_item_merchant import AuthorizationListItemMerchant  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        card_id = d.pop("cardId", UNSET)

        card_holder_id = d.pop("cardHolderId", UNSET)

        amount = d.pop("amount", UNSET)

        currency = d.pop("currency", UNSET)

        _channel = d.pop("channel", UNSET)
        channel: AuthorizationListItemChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = AuthorizationListItemChannel(_channel)

        _merchant = d.pop("merchant", UNSET)
        merchant: AuthorizationListItemMerchant | Unset
        if isinstance(_merchant, Unset):
            merchant = UNSET
        else:
            merchant = AuthorizationListItemMerchant.from_dict(_merchant)

        approved = d.pop("approved", UNSET)

        _status = d.pop("status", UNSET)
        status: AuthorizationListItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = AuthorizationListItemStatus(_status)

        def _parse_decline_reason(
            data: object,
        ) -> (
            AuthorizationListItemDeclineReasonType1
            | AuthorizationListItemDeclineReasonType2Type1
            | AuthorizationListItemDeclineReasonType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_type_1 = AuthorizationListItemDeclineReasonType1(data)

                return decline_reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_type_2_type_1 = AuthorizationListItemDeclineReasonType2Type1(data)

                return decline_reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_reason_type_3_type_1 = AuthorizationListItemDeclineReasonType3Type1(data)

                return decline_reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AuthorizationListItemDeclineReasonType1
                | AuthorizationListItemDeclineReasonType2Type1
                | AuthorizationListItemDeclineReasonType3Type1
                | None
                | Unset,
                data,
            )

        decline_reason = _parse_decline_reason(d.pop("declineReason", UNSET))

        pending_amount = d.pop("pendingAmount", UNSET)

        captured_amount = d.pop("capturedAmount", UNSET)

        reversed_amount = d.pop("reversedAmount", UNSET)

        refunded_amount = d.pop("refundedAmount", UNSET)

        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)

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

        requested_amount = d.pop("requestedAmount", UNSET)

        def _parse_decision(data: object) -> AuthorizationListItemDecisionType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decision_type_0 = AuthorizationListItemDecisionType0.from_dict(data)

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorizationListItemDecisionType0 | None | Unset, data)

        decision = _parse_decision(d.pop("decision", UNSET))

        authorization_list_item = cls(
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

        authorization_list_item.additional_properties = d
        return authorization_list_item

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
