from enum import StrEnum


class ListApiKeysSort(StrEnum):
    CLIENT = "client"
    CREATEDAT = "createdAt"
    PERMISSIONS = "permissions"
    REVEAL = "reveal"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-createdAt"
    VALUE_2 = "-_id"
    VALUE_4 = "-client"
    VALUE_6 = "-permissions"
    VALUE_8 = "-reveal"

    def __str__(self) -> str:
        return str(self.value)
