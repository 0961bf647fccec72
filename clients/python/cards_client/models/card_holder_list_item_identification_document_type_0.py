from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_holder_list_item_identification_document_type_0_type_type_1 import (
    CardHolderListItemIdentificationDocumentType0TypeType1,
)
from ..models.card_holder_list_item_identification_document_type_0_type_type_2_type_1 import (
    CardHolderListItemIdentificationDocumentType0TypeType2Type1,
)
from ..models.card_holder_list_item_identification_document_type_0_type_type_3_type_1 import (
    CardHolderListItemIdentificationDocumentType0TypeType3Type1,
)
from ..models.card_holder_list_item_identification_document_type_0_verification_status import (
    CardHolderListItemIdentificationDocumentType0VerificationStatus,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_holder_list_item_identification_document_type_0_back_meta_type_0 import (
        CardHolderListItemIdentificationDocumentType0BackMetaType0,
    )
    from ..models.card_holder_list_item_identification_document_type_0_meta_type_0 import (
        CardHolderListItemIdentificationDocumentType0MetaType0,
    )
    from ..models.card_holder_list_item_identification_document_type_0_urls import (
        CardHolderListItemIdentificationDocumentType0Urls,
    )


T = TypeVar("T", bound="CardHolderListItemIdentificationDocumentType0")


@_attrs_define
class CardHolderListItemIdentificationDocumentType0:
    """
    Attributes:
        type_ (CardHolderListItemIdentificationDocumentType0TypeType1 |
            CardHolderListItemIdentificationDocumentType0TypeType2Type1 |
            CardHolderListItemIdentificationDocumentType0TypeType3Type1 | None | Unset):
        number (None | str | Unset):
        issue_date (None | str | Unset):
        expiry_date (None | str | Unset):
        issuing_country (None | str | Unset):
        verification_status (CardHolderListItemIdentificationDocumentType0VerificationStatus | Unset):
        description (None | str | Unset):
        urls (CardHolderListItemIdentificationDocumentType0Urls | Unset):
        meta (CardHolderListItemIdentificationDocumentType0MetaType0 | None | Unset):
        back_meta (CardHolderListItemIdentificationDocumentType0BackMetaType0 | None | Unset):
    """

    type_: (
        CardHolderListItemIdentificationDocumentType0TypeType1
        | CardHolderListItemIdentificationDocumentType0TypeType2Type1
        | CardHolderListItemIdentificationDocumentType0TypeType3Type1
        | None
        | Unset
    ) = UNSET
    number: None | str | Unset = UNSET
    issue_date: None | str | Unset = UNSET
    expiry_date: None | str | Unset = UNSET
    issuing_country: None | str | Unset = UNSET
    verification_status: CardHolderListItemIdentificationDocumentType0VerificationStatus | Unset = UNSET
    description: None | str | Unset = UNSET
    urls: CardHolderListItemIdentificationDocumentType0Urls | Unset = UNSET
    meta: CardHolderListItemIdentificationDocumentType0MetaType0 | None | Unset = UNSET
    back_meta: CardHolderListItemIdentificationDocumentType0BackMetaType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.card_holder_list_item_identification_document_type_0_back_meta_type_0 import (
            CardHolderListItemIdentificationDocumentType0BackMetaType0,  # noqa: PLC0415
        )
        from ..models.card_holder_list_item_identification_document_type_0_meta_type_0 import (
            CardHolderListItemIdentificationDocumentType0MetaType0,  # noqa: PLC0415
        )

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, CardHolderListItemIdentificationDocumentType0TypeType1):
            type_ = self.type_.value
        elif isinstance(self.type_, CardHolderListItemIdentificationDocumentType0TypeType2Type1):
            type_ = self.type_.value
        elif isinstance(self.type_, CardHolderListItemIdentificationDocumentType0TypeType3Type1):
            type_ = self.type_.value
        else:
            type_ = self.type_

        number: None | str | Unset
        if isinstance(self.number, Unset):
            number = UNSET
        else:
            number = self.number

        issue_date: None | str | Unset
        if isinstance(self.issue_date, Unset):
            issue_date = UNSET
        else:
            issue_date = self.issue_date

        expiry_date: None | str | Unset
        if isinstance(self.expiry_date, Unset):
            expiry_date = UNSET
        else:
            expiry_date = self.expiry_date

        issuing_country: None | str | Unset
        if isinstance(self.issuing_country, Unset):
            issuing_country = UNSET
        else:
            issuing_country = self.issuing_country

        verification_status: str | Unset = UNSET
        if not isinstance(self.verification_status, Unset):
            verification_status = self.verification_status.value

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        urls: dict[str, Any] | Unset = UNSET
        if not isinstance(self.urls, Unset):
            urls = self.urls.to_dict()

        meta: dict[str, Any] | None | Unset
        if isinstance(self.meta, Unset):
            meta = UNSET
        elif isinstance(self.meta, CardHolderListItemIdentificationDocumentType0MetaType0):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        back_meta: dict[str, Any] | None | Unset
        if isinstance(self.back_meta, Unset):
            back_meta = UNSET
        elif isinstance(self.back_meta, CardHolderListItemIdentificationDocumentType0BackMetaType0):
            back_meta = self.back_meta.to_dict()
        else:
            back_meta = self.back_meta

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_
        if number is not UNSET:
            field_dict["number"] = number
        if issue_date is not UNSET:
            field_dict["issueDate"] = issue_date
        if expiry_date is not UNSET:
            field_dict["expiryDate"] = expiry_date
        if issuing_country is not UNSET:
            field_dict["issuingCountry"] = issuing_country
        if verification_status is not UNSET:
            field_dict["verificationStatus"] = verification_status
        if description is not UNSET:
            field_dict["description"] = description
        if urls is not UNSET:
            field_dict["urls"] = urls
        if meta is not UNSET:
            field_dict["meta"] = meta
        if back_meta is not UNSET:
            field_dict["backMeta"] = back_meta

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_holder_list_item_identification_document_type_0_back_meta_type_0 import (
            CardHolderListItemIdentificationDocumentType0BackMetaType0,  # noqa: PLC0415
        )
        from ..models.card_holder_list_item_identification_document_type_0_meta_type_0 import (
            CardHolderListItemIdentificationDocumentType0MetaType0,  # noqa: PLC0415
        )
        from ..models.card_holder_list_item_identification_document_type_0_urls import (
            CardHolderListItemIdentificationDocumentType0Urls,  # noqa: PLC0415
        )

        d = dict(src_dict)

        def _parse_type_(
            data: object,
        ) -> (
            CardHolderListItemIdentificationDocumentType0TypeType1
            | CardHolderListItemIdentificationDocumentType0TypeType2Type1
            | CardHolderListItemIdentificationDocumentType0TypeType3Type1
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
                type_type_1 = CardHolderListItemIdentificationDocumentType0TypeType1(data)

                return type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_2_type_1 = CardHolderListItemIdentificationDocumentType0TypeType2Type1(data)

                return type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_3_type_1 = CardHolderListItemIdentificationDocumentType0TypeType3Type1(data)

                return type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CardHolderListItemIdentificationDocumentType0TypeType1
                | CardHolderListItemIdentificationDocumentType0TypeType2Type1
                | CardHolderListItemIdentificationDocumentType0TypeType3Type1
                | None
                | Unset,
                data,
            )

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        number = _parse_number(d.pop("number", UNSET))

        def _parse_issue_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        issue_date = _parse_issue_date(d.pop("issueDate", UNSET))

        def _parse_expiry_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expiry_date = _parse_expiry_date(d.pop("expiryDate", UNSET))

        def _parse_issuing_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        issuing_country = _parse_issuing_country(d.pop("issuingCountry", UNSET))

        _verification_status = d.pop("verificationStatus", UNSET)
        verification_status: CardHolderListItemIdentificationDocumentType0VerificationStatus | Unset
        if isinstance(_verification_status, Unset):
            verification_status = UNSET
        else:
            verification_status = CardHolderListItemIdentificationDocumentType0VerificationStatus(_verification_status)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _urls = d.pop("urls", UNSET)
        urls: CardHolderListItemIdentificationDocumentType0Urls | Unset
        if isinstance(_urls, Unset):
            urls = UNSET
        else:
            urls = CardHolderListItemIdentificationDocumentType0Urls.from_dict(_urls)

        def _parse_meta(data: object) -> CardHolderListItemIdentificationDocumentType0MetaType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = CardHolderListItemIdentificationDocumentType0MetaType0.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderListItemIdentificationDocumentType0MetaType0 | None | Unset, data)

        meta = _parse_meta(d.pop("meta", UNSET))

        def _parse_back_meta(data: object) -> CardHolderListItemIdentificationDocumentType0BackMetaType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                back_meta_type_0 = CardHolderListItemIdentificationDocumentType0BackMetaType0.from_dict(data)

                return back_meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CardHolderListItemIdentificationDocumentType0BackMetaType0 | None | Unset, data)

        back_meta = _parse_back_meta(d.pop("backMeta", UNSET))

        card_holder_list_item_identification_document_type_0 = cls(
            type_=type_,
            number=number,
            issue_date=issue_date,
            expiry_date=expiry_date,
            issuing_country=issuing_country,
            verification_status=verification_status,
            description=description,
            urls=urls,
            meta=meta,
            back_meta=back_meta,
        )

        card_holder_list_item_identification_document_type_0.additional_properties = d
        return card_holder_list_item_identification_document_type_0

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
