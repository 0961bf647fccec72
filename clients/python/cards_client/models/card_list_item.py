from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_list_item_brand import CardListItemBrand
from ..models.card_list_item_cancellation_reason_type_1 import CardListItemCancellationReasonType1
from ..models.card_list_item_cancellation_reason_type_2_type_1 import CardListItemCancellationReasonType2Type1
from ..models.card_list_item_cancellation_reason_type_3_type_1 import CardListItemCancellationReasonType3Type1
from ..models.card_list_item_status import CardListItemStatus
from ..models.card_list_item_type import CardListItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_list_item_metadata import CardListItemMetadata
    from ..models.card_list_item_spending_controls import CardListItemSpendingControls


T = TypeVar("T", bound="CardListItem")


@_attrs_define
class CardListItem:
    """
    Attributes:
        field_id (str | Unset):
        debit_account_id (str | Unset):
        card_holder_id (str | Unset):
        type_ (CardListItemType | Unset):
        brand (CardListItemBrand | Unset):
        currency (str | Unset):
        status (CardListItemStatus | Unset):
        metadata (CardListItemMetadata | Unset):
        spending_controls (CardListItemSpendingControls | Unset):
        enable_2fa (bool | Unset):
        disposable (bool | Unset):
        balance (float | Unset):
        available_balance (float | Unset):
        ledger_balance (float | Unset):
        masked_pan (str | Unset):
        last4 (str | Unset):
        expiry_month (str | Unset):
        expiry_year (str | Unset):
        cancellation_reason (CardListItemCancellationReasonType1 | CardListItemCancellationReasonType2Type1 |
            CardListItemCancellationReasonType3Type1 | None | Unset):
        canceled_at (datetime.datetime | None | Unset):
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    debit_account_id: str | Unset = UNSET
    card_holder_id: str | Unset = UNSET
    type_: CardListItemType | Unset = UNSET
    brand: CardListItemBrand | Unset = UNSET
    currency: str | Unset = UNSET
    status: CardListItemStatus | Unset = UNSET
    metadata: CardListItemMetadata | Unset = UNSET
    spending_controls: CardListItemSpendingControls | Unset = UNSET
    enable_2fa: bool | Unset = UNSET
    disposable: bool | Unset = UNSET
    balance: float | Unset = UNSET
    available_balance: float | Unset = UNSET
    ledger_balance: float | Unset = UNSET
    masked_pan: str | Unset = UNSET
    last4: str | Unset = UNSET
    expiry_month: str | Unset = UNSET
    expiry_year: str | Unset = UNSET
    cancellation_reason: (
        CardListItemCancellationReasonType1
        | CardListItemCancellationReasonType2Type1
        | CardListItemCancellationReasonType3Type1
        | None
        | Unset
    ) = UNSET
    canceled_at: datetime.datetime | None | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        debit_account_id = self.debit_account_id

        card_holder_id = self.card_holder_id

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        brand: str | Unset = UNSET
        if not isinstance(self.brand, Unset):
            brand = self.brand.value

        currency = self.currency

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        spending_controls: dict[str, Any] | Unset = UNSET
        if not isinstance(self.spending_controls, Unset):
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

        cancellation_reason: None | str | Unset
        if isinstance(self.cancellation_reason, Unset):
            cancellation_reason = UNSET
        elif isinstance(self.cancellation_reason, CardListItemCancellationReasonType1):
            cancellation_reason = self.cancellation_reason.value
        elif isinstance(self.cancellation_reason, CardListItemCancellationReasonType2Type1):
            cancellation_reason = self.cancellation_reason.value
        elif isinstance(self.cancellation_reason, CardListItemCancellationReasonType3Type1):
            cancellation_reason = self.cancellation_reason.value
        else:
            cancellation_reason = self.cancellation_reason

        canceled_at: None | str | Unset
        if isinstance(self.canceled_at, Unset):
            canceled_at = UNSET
        elif isinstance(self.canceled_at, datetime.datetime):
            canceled_at = self.canceled_at.isoformat()
        else:
            canceled_at = self.canceled_at

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
        if debit_account_id is not UNSET:
            field_dict["debitAccountId"] = debit_account_id
        if card_holder_id is not UNSET:
            field_dict["cardHolderId"] = card_holder_id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if brand is not UNSET:
            field_dict["brand"] = brand
        if currency is not UNSET:
            field_dict["currency"] = currency
        if status is not UNSET:
            field_dict["status"] = status
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if spending_controls is not UNSET:
            field_dict["spendingControls"] = spending_controls
        if enable_2fa is not UNSET:
            field_dict["enable2FA"] = enable_2fa
        if disposable is not UNSET:
            field_dict["disposable"] = disposable
        if balance is not UNSET:
            field_dict["balance"] = balance
        if available_balance is not UNSET:
            field_dict["availableBalance"] = available_balance
        if ledger_balance is not UNSET:
            field_dict["ledgerBalance"] = ledger_balance
        if masked_pan is not UNSET:
            field_dict["maskedPan"] = masked_pan
        if last4 is not UNSET:
            field_dict["last4"] = last4
        if expiry_month is not UNSET:
            field_dict["expiryMonth"] = expiry_month
        if expiry_year is not UNSET:
            field_dict["expiryYear"] = expiry_year
        if cancellation_reason is not UNSET:
            field_dict["cancellationReason"] = cancellation_reason
        if canceled_at is not UNSET:
            field_dict["canceledAt"] = canceled_at
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_list_item_metadata import CardListItemMetadata  # noqa: PLC0415
        from ..models.card_list_item_spending_controls import CardListItemSpendingControls  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        debit_account_id = d.pop("debitAccountId", UNSET)

        card_holder_id = d.pop("cardHolderId", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: CardListItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = CardListItemType(_type_)

        _brand = d.pop("brand", UNSET)
        brand: CardListItemBrand | Unset
        if isinstance(_brand, Unset):
            brand = UNSET
        else:
            brand = CardListItemBrand(_brand)

        currency = d.pop("currency", UNSET)

        _status = d.pop("status", UNSET)
        status: CardListItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = CardListItemStatus(_status)

        _metadata = d.pop("metadata", UNSET)
        metadata: CardListItemMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = CardListItemMetadata.from_dict(_metadata)

        _spending_controls = d.pop("spendingControls", UNSET)
        spending_controls: CardListItemSpendingControls | Unset
        if isinstance(_spending_controls, Unset):
            spending_controls = UNSET
        else:
            spending_controls = CardListItemSpendingControls.from_dict(_spending_controls)

        enable_2fa = d.pop("enable2FA", UNSET)

        disposable = d.pop("disposable", UNSET)

        balance = d.pop("balance", UNSET)

        available_balance = d.pop("availableBalance", UNSET)

        ledger_balance = d.pop("ledgerBalance", UNSET)

        masked_pan = d.pop("maskedPan", UNSET)

        last4 = d.pop("last4", UNSET)

        expiry_month = d.pop("expiryMonth", UNSET)

        expiry_year = d.pop("expiryYear", UNSET)

        def _parse_cancellation_reason(
            data: object,
        ) -> (
            CardListItemCancellationReasonType1
            | CardListItemCancellationReasonType2Type1
            | CardListItemCancellationReasonType3Type1
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
                cancellation_reason_type_1 = CardListItemCancellationReasonType1(data)

                return cancellation_reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancellation_reason_type_2_type_1 = CardListItemCancellationReasonType2Type1(data)

                return cancellation_reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancellation_reason_type_3_type_1 = CardListItemCancellationReasonType3Type1(data)

                return cancellation_reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CardListItemCancellationReasonType1
                | CardListItemCancellationReasonType2Type1
                | CardListItemCancellationReasonType3Type1
                | None
                | Unset,
                data,
            )

        cancellation_reason = _parse_cancellation_reason(d.pop("cancellationReason", UNSET))

        def _parse_canceled_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                canceled_at_type_0 = datetime.datetime.fromisoformat(data)

                return canceled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        canceled_at = _parse_canceled_at(d.pop("canceledAt", UNSET))

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

        card_list_item = cls(
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

        card_list_item.additional_properties = d
        return card_list_item

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
