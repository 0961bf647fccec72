from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.file_meta_input_file_type import FileMetaInputFileType

T = TypeVar("T", bound="FileMetaInput")


@_attrs_define
class FileMetaInput:
    """
    Attributes:
        file_type (FileMetaInputFileType):
        content_hash (str):
    """

    file_type: FileMetaInputFileType
    content_hash: str

    def to_dict(self) -> dict[str, Any]:
        file_type = self.file_type.value

        content_hash = self.content_hash

        field_dict: dict[str, Any] = {}

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
        file_type = FileMetaInputFileType(d.pop("fileType"))

        content_hash = d.pop("contentHash")

        file_meta_input = cls(
            file_type=file_type,
            content_hash=content_hash,
        )

        return file_meta_input
