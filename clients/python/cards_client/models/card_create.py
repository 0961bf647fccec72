from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.card_create_brand import CardCreateBrand
from ..models.card_create_currency_type_0 import CardCreateCurrencyType0
from ..models.card_create_status import CardCreateStatus
from ..models.card_create_type import CardCreateType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_create_metadata_type_0 import CardCreateMetadataType0
    from ..models.spending_controls_input import SpendingControlsInput


T = TypeVar("T", bound="CardCreate")


@_attrs_define
class CardCreate:
    """
    Attributes:
        debit_account_id (str):
        card_holder_id (str):
        type_ (CardCreateType):
        brand (CardCreateBrand):
        status (CardCreateStatus):
        currency (CardCreateCurrencyType0 | None | Unset):
        metadata (CardCreateMetadataType0 | None | Unset):
        spending_controls (None | SpendingControlsInput | Unset):
        enable_2fa (bool | None | Unset):
        amount (float | None | Unset):
        disposable (bool | None | Unset):
    """

    debit_account_id: str
    card_holder_id: str
    type_: CardCreateType
    brand: CardCreateBrand
    status: CardCreateStatus
    currency: CardCreateCurrencyType0 | None | Unset = UNSET
    metadata: CardCreateMetadataType0 | None | Unset = UNSET
    spending_controls: None | SpendingControlsInput | Unset = UNSET
    enable_2fa: bool | None | Unset = UNSET
    amount: float | None | Unset = UNSET
    disposable: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_create_metadata_type_0 import CardCreateMetadataType0  # noqa: PLC0415
        from ..models.spending_controls_input import SpendingControlsInput  # noqa: PLC0415

        debit_account_id = self.debit_account_id

        card_holder_id = self.card_holder_id

        type_ = self.type_.value

        brand = self.brand.value

        status = self.status.value

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        elif isinstance(self.currency, CardCreateCurrencyType0):
            currency = self.currency.value
        else:
            currency = self.currency

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, CardCreateMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        spending_controls: dict[str, Any] | None | Unset
        if isinstance(self.spending_controls, Unset):
            spending_controls = UNSET
        elif isinstance(self.spending_controls, SpendingControlsInput):
            spending_controls = self.spending_controls.to_dict()
        else:
            spending_controls = self.spending_controls

        enable_2fa: bool | None | Unset
        if isinstance(self.enable_2fa, Unset):
            enable_2fa = UNSET
        else:
            enable_2fa = self.enable_2fa

        amount: float | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        disposable: bool | None | Unset
        if isinstance(self.disposable, Unset):
            disposable = UNSET
        else:
            disposable = self.disposable

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "debitAccountId": debit_account_id,
                "cardHolderId": card_holder_id,
                "type": type_,
                "brand": brand,
                "status": status,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if spending_controls is not UNSET:
            field_dict["spendingControls"] = spending_controls
        if enable_2fa is not UNSET:
            field_dict["enable2FA"] = enable_2fa
        if amount is not UNSET:
            field_dict["amount"] = amount
        if disposable is not UNSET:
            field_dict["disposable"] = disposable

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_create_metadata_type_0 import CardCreateMetadataType0  # noqa: PLC0415
        from ..models.spending_controls_input import SpendingControlsInput  # noqa: PLC0415

        d = dict(src_dict)
        debit_account_id = d.pop("debitAccountId")

        card_holder_id = d.pop("cardHolderId")

        type_ = CardCreateType(d.pop("type"))

        brand = CardCreateBrand(d.pop("brand"))

        status = CardCreateStatus(d.pop("status"))

        def _parse_currency(data: object) -> CardCreateCurrencyType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                currency_type_0 = CardCreateCurrencyType0(data)

                return currency_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardCreateCurrencyType0 | None | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_metadata(data: object) -> CardCreateMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = CardCreateMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardCreateMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_spending_controls(data: object) -> None | SpendingControlsInput | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                spending_controls_type_0 = SpendingControlsInput.from_dict(data)

                return spending_controls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SpendingControlsInput | Unset, data)

        spending_controls = _parse_spending_controls(d.pop("spendingControls", UNSET))

        def _parse_enable_2fa(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enable_2fa = _parse_enable_2fa(d.pop("enable2FA", UNSET))

        def _parse_amount(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_disposable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        disposable = _parse_disposable(d.pop("disposable", UNSET))

        card_create = cls(
            debit_account_id=debit_account_id,
            card_holder_id=card_holder_id,
            type_=type_,
            brand=brand,
            status=status,
            currency=currency,
            metadata=metadata,
            spending_controls=spending_controls,
            enable_2fa=enable_2fa,
            amount=amount,
            disposable=disposable,
        )

        return card_create
