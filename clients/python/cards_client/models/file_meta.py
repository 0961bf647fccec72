from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.file_meta_file_type import FileMetaFileType

T = TypeVar("T", bound="FileMeta")


@_attrs_define
class FileMeta:
    """
    Attributes:
        file_type (FileMetaFileType):
        content_hash (str):
    """

    file_type: FileMetaFileType
    content_hash: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file_type = self.file_type.value

        content_hash = self.content_hash

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fileType": file_type,
                "contentHash": content_hash,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_type = FileMetaFileType(d.pop("fileType"))

        content_hash = d.pop("contentHash")

        file_meta = cls(
            file_type=file_type,
            content_hash=content_hash,
        )

        file_meta.additional_properties = d
        return file_meta

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
