/*
 * provebench.pilot.lab._listorder: the Drive's listing order, kept up to date without going
 * through every file (docs/pilot-lab.md, "Performance").
 *
 * The Drive (_drive_state.py) keeps every known file_id ascending, and the files index for
 * index in a second list, so that a page is two slices. Each cycle adds its new files at the
 * end of both lists and merges them into place. Sorting the ids again and looking every file up
 * by its id costs a few memory accesses per file of the Drive, each a cache miss at a million
 * files; and every cycle does it. `merge_tail` instead finds where each new id goes (a search
 * among the ids near the last one placed) and moves the stretches between them as blocks of
 * pointers: no file and no id that is not compared is touched, and no reference count changes,
 * since every object stays in its list, at another index.
 *
 * `merge_tail(ids, files, start)`: `ids` and `files` are lists of one length; `ids[:start]` and
 * `ids[start:]` are each ascending. It reorders both lists, in place and alike, so that `ids`
 * is ascending, as `sorted` would order it (stable: an id of the head before an equal one of
 * the tail), and returns True. It declines — returns False and leaves both lists as they were —
 * for anything else: not exact lists, lengths that differ, `start` outside the lists, or an id
 * it would compare that is not an exact, ready `str`. The caller then sorts in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* Whether `text` is an exact str whose characters PyUnicode_Compare reads without preparing
 * them (always from Python 3.12 on; in 3.11 a string made by a deprecated C API may not be). */
static int
is_plain_str(PyObject *text)
{
    if (!PyUnicode_CheckExact(text)) {
        return 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_IS_READY(text);
#else
    return 1;
#endif
}

/* In ids[0:high], the index after the last id <= key (bisect_right), searched from `high`
 * down in growing steps: the keys come largest first, each close below the one before.
 * -1 when an id it compares is not a plain str. */
static Py_ssize_t
place_below(PyObject *const *ids, Py_ssize_t high, PyObject *key)
{
    Py_ssize_t low = 0, step = 1;
    while (high - step > 0) {
        PyObject *probe = ids[high - step];
        if (!is_plain_str(probe)) {
            return -1;
        }
        if (PyUnicode_Compare(key, probe) >= 0) {
            low = high - step + 1;
            break;
        }
        high -= step;
        step *= 2;
    }
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        PyObject *probe = ids[middle];
        if (!is_plain_str(probe)) {
            return -1;
        }
        if (PyUnicode_Compare(key, probe) < 0) {
            high = middle;
        }
        else {
            low = middle + 1;
        }
    }
    return low;
}

static PyObject *
merge_tail(PyObject *module, PyObject *args)
{
    PyObject *ids_list, *files_list;
    Py_ssize_t start;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOn:merge_tail", &ids_list, &files_list, &start)) {
        return NULL;
    }
    if (!PyList_CheckExact(ids_list) || !PyList_CheckExact(files_list)) {
        Py_RETURN_FALSE;
    }
    Py_ssize_t total = PyList_GET_SIZE(ids_list);
    if (PyList_GET_SIZE(files_list) != total || start < 0 || start > total) {
        Py_RETURN_FALSE;
    }
    Py_ssize_t added = total - start;
    if (added == 0) {
        Py_RETURN_TRUE;
    }
    PyObject **ids = ((PyListObject *)ids_list)->ob_item;
    PyObject **files = ((PyListObject *)files_list)->ob_item;
    /* First every place, touching nothing: a decline leaves the lists as they were. */
    Py_ssize_t *places = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)added);
    PyObject **tail = PyMem_Malloc(sizeof(PyObject *) * 2 * (size_t)added);
    if (places == NULL || tail == NULL) {
        PyMem_Free(places);
        PyMem_Free(tail);
        return PyErr_NoMemory();
    }
    Py_ssize_t high = start;
    for (Py_ssize_t index = added - 1; index >= 0; index--) {
        PyObject *key = ids[start + index];
        if (!is_plain_str(key) ||
            (index + 1 < added && PyUnicode_Compare(key, ids[start + index + 1]) > 0)) {
            goto decline; /* not a str, or the tail is not ascending */
        }
        high = place_below(ids, high, key);
        if (high < 0) {
            goto decline;
        }
        places[index] = high;
    }
    /* Then the moves, from the end: each stretch of the head above a new id moves up by the
     * number of new ids still below it, then the new id goes under it. */
    memcpy(tail, ids + start, sizeof(PyObject *) * (size_t)added);
    memcpy(tail + added, files + start, sizeof(PyObject *) * (size_t)added);
    Py_ssize_t head_end = start, write = total;
    for (Py_ssize_t index = added - 1; index >= 0; index--) {
        Py_ssize_t place = places[index], stretch = head_end - place;
        write -= stretch;
        memmove(ids + write, ids + place, sizeof(PyObject *) * (size_t)stretch);
        memmove(files + write, files + place, sizeof(PyObject *) * (size_t)stretch);
        write -= 1;
        ids[write] = tail[index];
        files[write] = tail[added + index];
        head_end = place;
    }
    PyMem_Free(places);
    PyMem_Free(tail);
    Py_RETURN_TRUE;
decline:
    PyMem_Free(places);
    PyMem_Free(tail);
    Py_RETURN_FALSE;
}

static PyMethodDef methods[] = {
    {"merge_tail", merge_tail, METH_VARARGS,
     "merge_tail(ids, files, start) -> bool\n\nMerge the ascending ids[start:] into the "
     "ascending ids[:start] in place, moving files alike; False (lists untouched) when it "
     "cannot."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef listorder_module = {
    PyModuleDef_HEAD_INIT,
    "provebench.pilot.lab._listorder",
    "The Drive's listing order, merged in place (docs/pilot-lab.md).",
    0,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__listorder(void)
{
    return PyModuleDef_Init(&listorder_module);
}
