from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="IdentificationInputDocumentType0UrlsType0")


@_attrs_define
class IdentificationInputDocumentType0UrlsType0:
    """
    Attributes:
        main (None | str | Unset):
        back (None | str | Unset):
    """

    main: None | str | Unset = UNSET
    back: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        main: None | str | Unset
        if isinstance(self.main, Unset):
            main = UNSET
        else:
            main = self.main

        back: None | str | Unset
        if isinstance(self.back, Unset):
            back = UNSET
        else:
            back = self.back

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if main is not UNSET:
            field_dict["main"] = main
        if back is not UNSET:
            field_dict["back"] = back

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_main(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        main = _parse_main(d.pop("main", UNSET))

        def _parse_back(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        back = _parse_back(d.pop("back", UNSET))

        identification_input_document_type_0_urls_type_0 = cls(
            main=main,
            back=back,
        )

        return identification_input_document_type_0_urls_type_0
