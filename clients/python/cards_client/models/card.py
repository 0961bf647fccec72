from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_brand import CardBrand
from ..models.card_cancellation_reason_type_1 import CardCancellationReasonType1
from ..models.card_cancellation_reason_type_2_type_1 import CardCancellationReasonType2Type1
from ..models.card_cancellation_reason_type_3_type_1 import CardCancellationReasonType3Type1
from ..models.card_status import CardStatus
from ..models.card_type import CardType

if TYPE_CHECKING:
    from ..models.card_metadata import CardMetadata
    from ..models.spending_controls import SpendingControls


T = TypeVar("T", bound="Card")


@_attrs_define
class Card:
    """
    Attributes:
        field_id (str):
        debit_account_id (str):
        card_holder_id (str):
        type_ (CardType):
        brand (CardBrand):
        currency (str):
        status (CardStatus):
        metadata (CardMetadata):
        spending_controls (SpendingControls):
        enable_2fa (bool):
        disposable (bool):
        balance (float):
        available_balance (float):
        ledger_balance (float):
        masked_pan (str):
        last4 (str):
        expiry_month (str):
        expiry_year (str):
        cancellation_reason (CardCancellationReasonType1 | CardCancellationReasonType2Type1 |
            CardCancellationReasonType3Type1 | None):
        canceled_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    field_id: str
    debit_account_id: str
    card_holder_id: str
    type_: CardType
    brand: CardBrand
    currency: str
    status: CardStatus
    metadata: CardMetadata
    spending_controls: SpendingControls
    enable_2fa: bool
    disposable: bool
    balance: float
    available_balance: float
    ledger_balance: float
    masked_pan: str
    last4: str
    expiry_month: str
    expiry_year: str
    cancellation_reason: (
        CardCancellationReasonType1 | CardCancellationReasonType2Type1 | CardCancellationReasonType3Type1 | None
    )
    canceled_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        debit_account_id = self.debit_account_id

        card_holder_id = self.card_holder_id

        type_ = self.type_.value

        brand = self.brand.value

        currency = self.currency

        status = self.status.value

        metadata = self.metadata.to_dict()

        spending_controls = self.spending_controls.to_dict()

        enable_2fa = self.enable_2fa

        disposable = self.disposable

        balance = self.balance

        available_balance = self.available_balance

        ledger_balance = self.ledger_balance

        masked_pan = self.masked_pan

        last4 = self.last4

        expiry_month = self.expiry_month

        expiry_year = self.expiry_year

        cancellation_reason: None | str
        if isinstance(self.cancellation_reason, CardCancellationReasonType1):
            cancellation_reason = self.cancellation_reason.value
        elif isinstance(self.cancellation_reason, CardCancellationReasonType2Type1):
            cancellation_reason = self.cancellation_reason.value
        elif isinstance(self.cancellation_reason, CardCancellationReasonType3Type1):
            cancellation_reason = self.cancellation_reason.value
        else:
            cancellation_reason = self.cancellation_reason

        canceled_at: None | str
        if isinstance(self.canceled_at, datetime.datetime):
            canceled_at = self.canceled_at.isoformat()
        else:
            canceled_at = self.canceled_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "debitAccountId": debit_account_id,
                "cardHolderId": card_holder_id,
                "type": type_,
                "brand": brand,
                "currency": currency,
                "status": status,
                "metadata": metadata,
                "spendingControls": spending_controls,
                "enable2FA": enable_2fa,
                "disposable": disposable,
                "balance": balance,
                "availableBalance": available_balance,
                "ledgerBalance": ledger_balance,
                "maskedPan": masked_pan,
                "last4": last4,
                "expiryMonth": expiry_month,
                "expiryYear": expiry_year,
                "cancellationReason": cancellation_reason,
                "canceledAt": canceled_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_metadata import CardMetadata  # noqa: PLC0415
        from ..models.spending_controls import SpendingControls  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id")

        debit_account_id = d.pop("debitAccountId")

        card_holder_id = d.pop("cardHolderId")

        type_ = CardType(d.pop("type"))

        brand = CardBrand(d.pop("brand"))

        currency = d.pop("currency")

        status = CardStatus(d.pop("status"))

        metadata = CardMetadata.from_dict(d.pop("metadata"))

        spending_controls = SpendingControls.from_dict(d.pop("spendingControls"))

        enable_2fa = d.pop("enable2FA")

        disposable = d.pop("disposable")

        balance = d.pop("balance")

        available_balance = d.pop("availableBalance")

        ledger_balance = d.pop("ledgerBalance")

        masked_pan = d.pop("maskedPan")

        last4 = d.pop("last4")

        expiry_month = d.pop("expiryMonth")

        expiry_year = d.pop("expiryYear")

        def _parse_cancellation_reason(
            data: object,
        ) -> CardCancellationReasonType1 | CardCancellationReasonType2Type1 | CardCancellationReasonType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancellation_reason_type_1 = CardCancellationReasonType1(data)

                return cancellation_reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancellation_reason_type_2_type_1 = CardCancellationReasonType2Type1(data)

                return cancellation_reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancellation_reason_type_3_type_1 = CardCancellationReasonType3Type1(data)

                return cancellation_reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CardCancellationReasonType1
                | CardCancellationReasonType2Type1
                | CardCancellationReasonType3Type1
                | None,
                data,
            )

        cancellation_reason = _parse_cancellation_reason(d.pop("cancellationReason"))

        def _parse_canceled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                canceled_at_type_0 = datetime.datetime.fromisoformat(data)

                return canceled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        canceled_at = _parse_canceled_at(d.pop("canceledAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        card = cls(
            field_id=field_id,
            debit_account_id=debit_account_id,
            card_holder_id=card_holder_id,
            type_=type_,
            brand=brand,
            currency=currency,
            status=status,
            metadata=metadata,
            spending_controls=spending_controls,
            enable_2fa=enable_2fa,
            disposable=disposable,
            balance=balance,
            available_balance=available_balance,
            ledger_balance=ledger_balance,
            masked_pan=masked_pan,
            last4=last4,
            expiry_month=expiry_month,
            expiry_year=expiry_year,
            cancellation_reason=cancellation_reason,
            canceled_at=canceled_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        card.additional_properties = d
        return card

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
