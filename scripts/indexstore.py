"""What a build's index store says our code references, read with the toolchain's libIndexStore
(its C interface, through ctypes): for scripts/check-availability.py."""

import ctypes
import os
import shutil

_REFERENCE = 1 << 2
_DECLARATION_OR_DEFINITION = (1 << 0) | (1 << 1)
# What the compiler wrote, not the code (the `next(isolation:)` of a `for await`): the compiler
# picks what the deployment target has.
_IMPLICIT = 1 << 8
_RECORD = 2  # indexstore_unit_dependency_kind_t: INDEXSTORE_UNIT_DEPENDENCY_RECORD


class _Text(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def __str__(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8") if self.length else ""


def _library():
    """The toolchain's libIndexStore: beside the `swift` on PATH (usr/bin/../lib)."""
    swift = shutil.which("swift")
    if swift is None:
        raise SystemExit("no swift on PATH, so no libIndexStore to read the index with")
    path = os.path.join(os.path.dirname(os.path.realpath(swift)), "..", "lib", "libIndexStore.so")
    lib = ctypes.CDLL(os.path.normpath(path))
    pointer = ctypes.c_void_p
    for name, result, arguments in [
        ("indexstore_store_create", pointer, [ctypes.c_char_p, ctypes.POINTER(pointer)]),
        ("indexstore_unit_reader_create", pointer, [pointer, ctypes.c_char_p, ctypes.POINTER(pointer)]),
        ("indexstore_unit_reader_get_module_name", _Text, [pointer]),
        ("indexstore_unit_reader_dispose", None, [pointer]),
        ("indexstore_unit_dependency_get_kind", ctypes.c_int, [pointer]),
        ("indexstore_unit_dependency_get_name", _Text, [pointer]),
        ("indexstore_unit_dependency_get_filepath", _Text, [pointer]),
        ("indexstore_record_reader_create", pointer, [pointer, ctypes.c_char_p, ctypes.POINTER(pointer)]),
        ("indexstore_record_reader_dispose", None, [pointer]),
        ("indexstore_occurrence_get_symbol", pointer, [pointer]),
        ("indexstore_occurrence_get_roles", ctypes.c_uint64, [pointer]),
        ("indexstore_occurrence_get_line_col", None, [pointer, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
        ("indexstore_symbol_get_usr", _Text, [pointer]),
    ]:
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
    return lib


_NAMES = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, _Text)
_POINTERS = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def references(store_path, modules, root):
    """{(file, line, column, USR)}: every reference made by a file under `root` (not under a
    .build folder) compiled into one of `modules`."""
    lib = _library()
    lib.indexstore_store_units_apply_f.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, _NAMES]
    lib.indexstore_unit_reader_dependencies_apply_f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _POINTERS]
    lib.indexstore_record_reader_occurrences_apply_f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _POINTERS]
    store = lib.indexstore_store_create(store_path.encode(), None)
    if not store:
        raise SystemExit(f"{store_path}: not an index store (a debug build writes one)")
    units = []
    lib.indexstore_store_units_apply_f(store, 0, None, _NAMES(lambda _, name: units.append(str(name)) or True))
    records = {}
    for unit in units:
        reader = lib.indexstore_unit_reader_create(store, unit.encode(), None)
        if not reader:
            continue
        if str(lib.indexstore_unit_reader_get_module_name(reader)) in modules:

            def dependency(_, item):
                if lib.indexstore_unit_dependency_get_kind(item) == _RECORD:
                    path = os.path.realpath(str(lib.indexstore_unit_dependency_get_filepath(item)))
                    # A file since deleted or renamed leaves its record in the store.
                    if path.startswith(root + os.sep) and "/.build" not in path and os.path.exists(path):
                        records[str(lib.indexstore_unit_dependency_get_name(item))] = path
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, _POINTERS(dependency))
        lib.indexstore_unit_reader_dispose(reader)
    found = set()
    for record, path in records.items():
        reader = lib.indexstore_record_reader_create(store, record.encode(), None)
        if not reader:
            continue

        def occurrence(_, item):
            roles = lib.indexstore_occurrence_get_roles(item)
            if roles & _REFERENCE and not roles & (_DECLARATION_OR_DEFINITION | _IMPLICIT):
                line, column = ctypes.c_uint(), ctypes.c_uint()
                lib.indexstore_occurrence_get_line_col(item, ctypes.byref(line), ctypes.byref(column))
                usr = str(lib.indexstore_symbol_get_usr(lib.indexstore_occurrence_get_symbol(item)))
                found.add((path, line.value, column.value, usr))
            return True

        lib.indexstore_record_reader_occurrences_apply_f(reader, None, _POINTERS(occurrence))
        lib.indexstore_record_reader_dispose(reader)
    return found
