from enum import StrEnum


class CardHolderListItemIdentificationDocumentType0BackMetaType0FileType(StrEnum):
    APPLICATIONPDF = "application/pdf"
    IMAGEJPEG = "image/jpeg"
    IMAGEPNG = "image/png"

    def __str__(self) -> str:
        return str(self.value)
