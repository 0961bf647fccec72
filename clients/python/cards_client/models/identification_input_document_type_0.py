from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.identification_input_document_type_0_issuing_country_type_0 import (
    IdentificationInputDocumentType0IssuingCountryType0,
)
from ..models.identification_input_document_type_0_type_type_0 import IdentificationInputDocumentType0TypeType0
from ..models.identification_input_document_type_0_verification_status_type_0 import (
    IdentificationInputDocumentType0VerificationStatusType0,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.file_meta_input import FileMetaInput
    from ..models.identification_input_document_type_0_urls_type_0 import IdentificationInputDocumentType0UrlsType0


T = TypeVar("T", bound="IdentificationInputDocumentType0")


@_attrs_define
class IdentificationInputDocumentType0:
    """
    Attributes:
        type_ (IdentificationInputDocumentType0TypeType0 | None | Unset):
        number (None | str | Unset):
        issue_date (datetime.date | None | Unset):
        expiry_date (datetime.date | None | Unset):
        issuing_country (IdentificationInputDocumentType0IssuingCountryType0 | None | Unset):
        verification_status (IdentificationInputDocumentType0VerificationStatusType0 | None | Unset):
        description (None | str | Unset):
        urls (IdentificationInputDocumentType0UrlsType0 | None | Unset):
        meta (FileMetaInput | None | Unset):
        back_meta (FileMetaInput | None | Unset):
    """

    type_: IdentificationInputDocumentType0TypeType0 | None | Unset = UNSET
    number: None | str | Unset = UNSET
    issue_date: datetime.date | None | Unset = UNSET
    expiry_date: datetime.date | None | Unset = UNSET
    issuing_country: IdentificationInputDocumentType0IssuingCountryType0 | None | Unset = UNSET
    verification_status: IdentificationInputDocumentType0VerificationStatusType0 | None | Unset = UNSET
    description: None | str | Unset = UNSET
    urls: IdentificationInputDocumentType0UrlsType0 | None | Unset = UNSET
    meta: FileMetaInput | None | Unset = UNSET
    back_meta: FileMetaInput | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.file_meta_input import FileMetaInput  # noqa: PLC0415
        from ..models.identification_input_document_type_0_urls_type_0 import IdentificationInputDocumentType0UrlsType0  # noqa: PLC0415

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, IdentificationInputDocumentType0TypeType0):
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
        elif isinstance(self.issue_date, datetime.date):
            issue_date = self.issue_date.isoformat()
        else:
            issue_date = self.issue_date

        expiry_date: None | str | Unset
        if isinstance(self.expiry_date, Unset):
            expiry_date = UNSET
        elif isinstance(self.expiry_date, datetime.date):
            expiry_date = self.expiry_date.isoformat()
        else:
            expiry_date = self.expiry_date

        issuing_country: None | str | Unset
        if isinstance(self.issuing_country, Unset):
            issuing_country = UNSET
        elif isinstance(self.issuing_country, IdentificationInputDocumentType0IssuingCountryType0):
            issuing_country = self.issuing_country.value
        else:
            issuing_country = self.issuing_country

        verification_status: None | str | Unset
        if isinstance(self.verification_status, Unset):
            verification_status = UNSET
        elif isinstance(self.verification_status, IdentificationInputDocumentType0VerificationStatusType0):
            verification_status = self.verification_status.value
        else:
            verification_status = self.verification_status

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        urls: dict[str, Any] | None | Unset
        if isinstance(self.urls, Unset):
            urls = UNSET
        elif isinstance(self.urls, IdentificationInputDocumentType0UrlsType0):
            urls = self.urls.to_dict()
        else:
            urls = self.urls

        meta: dict[str, Any] | None | Unset
        if isinstance(self.meta, Unset):
            meta = UNSET
        elif isinstance(self.meta, FileMetaInput):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        back_meta: dict[str, Any] | None | Unset
        if isinstance(self.back_meta, Unset):
            back_meta = UNSET
        elif isinstance(self.back_meta, FileMetaInput):
            back_meta = self.back_meta.to_dict()
        else:
            back_meta = self.back_meta

        field_dict: dict[str, Any] = {}

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
        from ..models.file_meta_input import FileMetaInput  # noqa: PLC0415
        from ..models.identification_input_document_type_0_urls_type_0 import IdentificationInputDocumentType0UrlsType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_type_(data: object) -> IdentificationInputDocumentType0TypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = IdentificationInputDocumentType0TypeType0(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputDocumentType0TypeType0 | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        number = _parse_number(d.pop("number", UNSET))

        def _parse_issue_date(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                issue_date_type_0 = datetime.date.fromisoformat(data)

                return issue_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        issue_date = _parse_issue_date(d.pop("issueDate", UNSET))

        def _parse_expiry_date(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expiry_date_type_0 = datetime.date.fromisoformat(data)

                return expiry_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        expiry_date = _parse_expiry_date(d.pop("expiryDate", UNSET))

        def _parse_issuing_country(data: object) -> IdentificationInputDocumentType0IssuingCountryType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                issuing_country_type_0 = IdentificationInputDocumentType0IssuingCountryType0(data)

                return issuing_country_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputDocumentType0IssuingCountryType0 | None | Unset, data)

        issuing_country = _parse_issuing_country(d.pop("issuingCountry", UNSET))

        def _parse_verification_status(
            data: object,
        ) -> IdentificationInputDocumentType0VerificationStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verification_status_type_0 = IdentificationInputDocumentType0VerificationStatusType0(data)

                return verification_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputDocumentType0VerificationStatusType0 | None | Unset, data)

        verification_status = _parse_verification_status(d.pop("verificationStatus", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_urls(data: object) -> IdentificationInputDocumentType0UrlsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                urls_type_0 = IdentificationInputDocumentType0UrlsType0.from_dict(data)

                return urls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IdentificationInputDocumentType0UrlsType0 | None | Unset, data)

        urls = _parse_urls(d.pop("urls", UNSET))

        def _parse_meta(data: object) -> FileMetaInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = FileMetaInput.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileMetaInput | None | Unset, data)

        meta = _parse_meta(d.pop("meta", UNSET))

        def _parse_back_meta(data: object) -> FileMetaInput | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                back_meta_type_0 = FileMetaInput.from_dict(data)

                return back_meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FileMetaInput | None | Unset, data)

        back_meta = _parse_back_meta(d.pop("backMeta", UNSET))

        identification_input_document_type_0 = cls(
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

        return identification_input_document_type_0
