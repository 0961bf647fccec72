from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.document_type_type_1 import DocumentTypeType1
from ..models.document_type_type_2_type_1 import DocumentTypeType2Type1
from ..models.document_type_type_3_type_1 import DocumentTypeType3Type1
from ..models.document_verification_status import DocumentVerificationStatus

if TYPE_CHECKING:
    from ..models.document_urls import DocumentUrls
    from ..models.file_meta import FileMeta


T = TypeVar("T", bound="Document")


@_attrs_define
class Document:
    """
    Attributes:
        type_ (DocumentTypeType1 | DocumentTypeType2Type1 | DocumentTypeType3Type1 | None):
        number (None | str):
        issue_date (None | str):
        expiry_date (None | str):
        issuing_country (None | str):
        verification_status (DocumentVerificationStatus):
        description (None | str):
        urls (DocumentUrls):
        meta (FileMeta | None):
        back_meta (FileMeta | None):
    """

    type_: DocumentTypeType1 | DocumentTypeType2Type1 | DocumentTypeType3Type1 | None
    number: None | str
    issue_date: None | str
    expiry_date: None | str
    issuing_country: None | str
    verification_status: DocumentVerificationStatus
    description: None | str
    urls: DocumentUrls
    meta: FileMeta | None
    back_meta: FileMeta | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.file_meta import FileMeta  # noqa: PLC0415

        type_: None | str
        if isinstance(self.type_, DocumentTypeType1):
            type_ = self.type_.value
        elif isinstance(self.type_, DocumentTypeType2Type1):
            type_ = self.type_.value
        elif isinstance(self.type_, DocumentTypeType3Type1):
            type_ = self.type_.value
        else:
            type_ = self.type_

        number: None | str
        number = self.number

        issue_date: None | str
        issue_date = self.issue_date

        expiry_date: None | str
        expiry_date = self.expiry_date

        issuing_country: None | str
        issuing_country = self.issuing_country

        verification_status = self.verification_status.value

        description: None | str
        description = self.description

        urls = self.urls.to_dict()

        meta: dict[str, Any] | None
        if isinstance(self.meta, FileMeta):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        back_meta: dict[str, Any] | None
        if isinstance(self.back_meta, FileMeta):
            back_meta = self.back_meta.to_dict()
        else:
            back_meta = self.back_meta

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "number": number,
                "issueDate": issue_date,
                "expiryDate": expiry_date,
                "issuingCountry": issuing_country,
                "verificationStatus": verification_status,
                "description": description,
                "urls": urls,
                "meta": meta,
                "backMeta": back_meta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_urls import DocumentUrls  # noqa: PLC0415
        from ..models.file_meta import FileMeta  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_type_(data: object) -> DocumentTypeType1 | DocumentTypeType2Type1 | DocumentTypeType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_1 = DocumentTypeType1(data)

                return type_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_2_type_1 = DocumentTypeType2Type1(data)

                return type_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_3_type_1 = DocumentTypeType3Type1(data)

                return type_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentTypeType1 | DocumentTypeType2Type1 | DocumentTypeType3Type1 | None, data)

        type_ = _parse_type_(d.pop("type"))

        def _parse_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        number = _parse_number(d.pop("number"))

        def _parse_issue_date(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        issue_date = _parse_issue_date(d.pop("issueDate"))

        def _parse_expiry_date(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        expiry_date = _parse_expiry_date(d.pop("expiryDate"))

        def _parse_issuing_country(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        issuing_country = _parse_issuing_country(d.pop("issuingCountry"))

        verification_status = DocumentVerificationStatus(d.pop("verificationStatus"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        urls = DocumentUrls.from_dict(d.pop("urls"))

        def _parse_meta(data: object) -> FileMeta | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = FileMeta.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileMeta | None, data)

        meta = _parse_meta(d.pop("meta"))

        def _parse_back_meta(data: object) -> FileMeta | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                back_meta_type_0 = FileMeta.from_dict(data)

                return back_meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileMeta | None, data)

        back_meta = _parse_back_meta(d.pop("backMeta"))

        document = cls(
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

        document.additional_properties = d
        return document

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
