/*
 * provebench.pilot._plainfields: the final-state scorer's inner loops over records, compiled
 * (docs/score-final.md, "The compiled comparison"). Each function answers exactly what the
 * Python road it stands in for answers, or returns None and that road decides; the answer is
 * never a guess. None of them makes an object per field.
 *
 * Records are what the scorer's CSV stream hands out, and their fields what `record_fields`
 * (_score_final_csv.py) gives: an exact `str` with no '"' is cut at its commas as
 * `str.split(",")` cuts it; a `QuotedRecord` (the class is passed in as `quoted_type`) has the
 * fields csv.reader gave in its `fields` attribute; a list (a record spanning lines) is its
 * fields.
 *
 * `count_equal_fields(expected, candidate, width, column, quoted_type)` walks the pairs
 * zip(expected, candidate) and answers what `FieldComparison._compare_slice`
 * (_score_final_layout.py) answers on its flat road: fields at the same position compared as
 * code points (pilot §7, field accuracy: `cr.get(k) == v` for rows as wide as one shared header
 * of distinct names). It answers only when every record of both lists has exactly `width`
 * fields, each an exact `str`: (equal_fields, equal_at_column), how many positions of all pairs
 * hold equal fields and, of those, how many are at `column` (the file_id column; -1 for none).
 *
 * `plain_widths(records, width, quoted_type)` is the keyed joins' width check, and
 * `first_fields(records)` the ids of the first column (see each below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* Whether a str's characters can be read with PyUnicode_KIND and PyUnicode_DATA: always from
 * Python 3.12 on; in 3.11 a string made by a deprecated C API may not be yet (then: declined). */
static int
is_ready(PyObject *text)
{
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_IS_READY(text);
#else
    (void)text;
    return 1;
#endif
}

/* The index of the next `ch` in `text` (of `kind`) from `start`, or `length` when none. */
static Py_ssize_t
find_char(int kind, const void *data, Py_ssize_t start, Py_ssize_t length, Py_UCS4 ch)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *bytes = (const Py_UCS1 *)data;
        const void *found = memchr(bytes + start, (int)ch, (size_t)(length - start));
        return found == NULL ? length : (const Py_UCS1 *)found - bytes;
    }
    for (Py_ssize_t index = start; index < length; index++) {
        if (PyUnicode_READ(kind, data, index) == ch) {
            return index;
        }
    }
    return length;
}

/* Whether the two fields [a, a + size) of `left` and [b, b + size) of `right` hold the same
 * code points. Strings of one kind compare as bytes; of two kinds (a field of ASCII in a row
 * that holds a non-ASCII character elsewhere), code point by code point. */
static int
same_field(int left_kind, const void *left, Py_ssize_t a,
           int right_kind, const void *right, Py_ssize_t b, Py_ssize_t size)
{
    if (left_kind == right_kind) {
        return memcmp((const char *)left + a * left_kind,
                      (const char *)right + b * right_kind,
                      (size_t)(size * left_kind)) == 0;
    }
    for (Py_ssize_t offset = 0; offset < size; offset++) {
        if (PyUnicode_READ(left_kind, left, a + offset)
            != PyUnicode_READ(right_kind, right, b + offset)) {
            return 0;
        }
    }
    return 1;
}

/* One record's fields, read one after the other: a plain text cut at its commas, or a list of
 * field strings (a quoted record's `fields`, or a record spanning lines). */
typedef struct {
    PyObject *fields;     /* the list of fields (borrowed), or NULL for a plain text */
    Py_ssize_t next;      /* plain text: where the next field starts; list: its index */
    int kind;             /* plain text: its kind, data and length */
    const void *data;
    Py_ssize_t length;
} Fields;

/* Set `fields` up for `record`; 0 when the record is none of the three shapes. A `QuotedRecord`
 * (exactly that class, which defines no attribute hooks) gives its `fields` attribute. */
static int
fields_open(Fields *fields, PyObject *record, PyObject *quoted_type, PyObject *fields_name)
{
    fields->next = 0;
    if (PyUnicode_CheckExact(record)) {
        if (!is_ready(record)) {
            return 0;
        }
        fields->fields = NULL;
        fields->kind = PyUnicode_KIND(record);
        fields->data = PyUnicode_DATA(record);
        fields->length = PyUnicode_GET_LENGTH(record);
        /* A quote makes csv.reader read the text otherwise than a split at commas. */
        return find_char(fields->kind, fields->data, 0, fields->length, '"') == fields->length;
    }
    if (PyList_CheckExact(record)) {
        fields->fields = record;
        return 1;
    }
    if ((PyObject *)Py_TYPE(record) == quoted_type) {
        PyObject *list = PyObject_GetAttr(record, fields_name);
        if (list == NULL) {
            PyErr_Clear();
            return 0;
        }
        /* The record's own attribute keeps the list alive after this reference is dropped. */
        Py_DECREF(list);
        if (!PyList_CheckExact(list)) {
            return 0;
        }
        fields->fields = list;
        return 1;
    }
    return 0;
}

/* The next field as (kind, data, start, size); 0 when the record has no more fields or the
 * field is not an exact str. */
static int
fields_next(Fields *fields, int *kind, const void **data, Py_ssize_t *start, Py_ssize_t *size)
{
    if (fields->fields == NULL) {
        if (fields->next > fields->length) {
            return 0;
        }
        Py_ssize_t end = find_char(fields->kind, fields->data, fields->next, fields->length, ',');
        *kind = fields->kind;
        *data = fields->data;
        *start = fields->next;
        *size = end - fields->next;
        fields->next = end + 1;
        return 1;
    }
    if (fields->next >= PyList_GET_SIZE(fields->fields)) {
        return 0;
    }
    PyObject *field = PyList_GET_ITEM(fields->fields, fields->next);
    fields->next++;
    if (!PyUnicode_CheckExact(field) || !is_ready(field)) {
        return 0;
    }
    *kind = PyUnicode_KIND(field);
    *data = PyUnicode_DATA(field);
    *start = 0;
    *size = PyUnicode_GET_LENGTH(field);
    return 1;
}

/* Whether every field has been read. */
static int
fields_done(const Fields *fields)
{
    if (fields->fields == NULL) {
        return fields->next == fields->length + 1;
    }
    return fields->next == PyList_GET_SIZE(fields->fields);
}

static PyObject *
count_equal_fields(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *expected, *candidate, *quoted_type;
    Py_ssize_t width, column;
    if (!PyArg_ParseTuple(args, "O!O!nnO!:count_equal_fields", &PyList_Type, &expected,
                          &PyList_Type, &candidate, &width, &column, &PyType_Type,
                          &quoted_type)) {
        return NULL;
    }
    Py_ssize_t pairs = PyList_GET_SIZE(expected);
    if (PyList_GET_SIZE(candidate) != pairs) {
        PyErr_SetString(PyExc_ValueError, "count_equal_fields: lists of different lengths");
        return NULL;
    }
    if (width < 1) {
        Py_RETURN_NONE;
    }
    PyObject *fields_name = PyUnicode_InternFromString("fields");
    if (fields_name == NULL) {
        return NULL;
    }
    long long equal_fields = 0, equal_at_column = 0;
    int plain = 1;
    /* No Python code runs in this loop and nothing changes the lists or the records, so the
     * borrowed items stay valid; the loop allocates nothing. */
    for (Py_ssize_t pair = 0; plain && pair < pairs; pair++) {
        Fields left, right;
        if (!fields_open(&left, PyList_GET_ITEM(expected, pair), quoted_type, fields_name)
            || !fields_open(&right, PyList_GET_ITEM(candidate, pair), quoted_type,
                            fields_name)) {
            plain = 0;
            break;
        }
        for (Py_ssize_t field = 0; field < width; field++) {
            int left_kind, right_kind;
            const void *left_data, *right_data;
            Py_ssize_t a, b, a_size, b_size;
            if (!fields_next(&left, &left_kind, &left_data, &a, &a_size)
                || !fields_next(&right, &right_kind, &right_data, &b, &b_size)) {
                plain = 0;  /* fewer fields than the header is wide, or not a str */
                break;
            }
            if (a_size == b_size
                && same_field(left_kind, left_data, a, right_kind, right_data, b, a_size)) {
                equal_fields++;
                equal_at_column += field == column;
            }
        }
        /* More fields than the header is wide: DictReader's extra-fields key, not this road. */
        plain = plain && fields_done(&left) && fields_done(&right);
    }
    Py_DECREF(fields_name);
    if (!plain) {
        Py_RETURN_NONE;
    }
    return Py_BuildValue("LL", equal_fields, equal_at_column);
}

/* first_fields(records) -> list[str] | None
 *
 * Each record's text before its first comma (all of it when it has none), as
 * `str.partition(",")[0]` gives it, without the tuple and the copy of the rest of the line that
 * `partition` makes. None, for the caller's own road, unless every record is a `str` (a
 * `QuotedRecord` included: its text as in the file) and no such text holds a quote (csv.reader
 * would read a quoted first field otherwise). */
static PyObject *
first_fields(PyObject *Py_UNUSED(module), PyObject *records)
{
    if (!PyList_Check(records)) {
        PyErr_SetString(PyExc_TypeError, "first_fields: a list of records is expected");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(records);
    PyObject *texts = PyList_New(count);
    if (texts == NULL) {
        return NULL;
    }
    for (Py_ssize_t index = 0; index < count; index++) {
        if (PyList_GET_SIZE(records) != count) {  /* changed by a finalizer the GC ran */
            Py_DECREF(texts);
            PyErr_SetString(PyExc_RuntimeError, "first_fields: the list changed size");
            return NULL;
        }
        PyObject *record = PyList_GET_ITEM(records, index);
        if (!PyUnicode_Check(record) || !is_ready(record)) {
            Py_DECREF(texts);
            Py_RETURN_NONE;  /* a record spanning lines (a list) */
        }
        int kind = PyUnicode_KIND(record);
        const void *data = PyUnicode_DATA(record);
        Py_ssize_t end = find_char(kind, data, 0, PyUnicode_GET_LENGTH(record), ',');
        if (find_char(kind, data, 0, end, '"') != end) {
            Py_DECREF(texts);
            Py_RETURN_NONE;
        }
        /* Allocating may run the garbage collector, and a finalizer it runs could change the
         * list: the record is held while it is copied, and the list's size checked above. */
        Py_INCREF(record);
        PyObject *text = PyUnicode_Substring(record, 0, end);
        Py_DECREF(record);
        if (text == NULL) {
            Py_DECREF(texts);
            return NULL;
        }
        PyList_SET_ITEM(texts, index, text);
    }
    return texts;
}

/* The number of `ch` in `text` (of `kind`) over [0, length). */
static Py_ssize_t
count_char(int kind, const void *data, Py_ssize_t length, Py_UCS4 ch)
{
    Py_ssize_t count = 0;
    for (Py_ssize_t index = find_char(kind, data, 0, length, ch); index < length;
         index = find_char(kind, data, index + 1, length, ch)) {
        count++;
    }
    return count;
}

/* plain_widths(records, width, quoted_type) -> bool | None
 *
 * Whether every record is one line exactly `width` fields wide, as the text join's
 * `check_plain_records` (_score_final_textjoin.py) asks: an exact `str` holding exactly
 * `width - 1` commas, or a `QuotedRecord` (exactly `quoted_type`) whose `fields` are `width`.
 * False as soon as one is not; None, for the caller's own road, when a record is of any other
 * class (a record spanning lines, a subclass of str). */
static PyObject *
plain_widths(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *records, *quoted_type;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "O!nO!:plain_widths", &PyList_Type, &records, &width,
                          &PyType_Type, &quoted_type)) {
        return NULL;
    }
    PyObject *fields_name = PyUnicode_InternFromString("fields");
    if (fields_name == NULL) {
        return NULL;
    }
    PyObject *answer = Py_True;
    /* No Python code runs in this loop (see count_equal_fields), so the borrowed items stay
     * valid; it allocates nothing. */
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(records); index++) {
        PyObject *record = PyList_GET_ITEM(records, index);
        if (PyUnicode_CheckExact(record) && is_ready(record)) {
            Py_ssize_t commas = count_char(PyUnicode_KIND(record), PyUnicode_DATA(record),
                                           PyUnicode_GET_LENGTH(record), ',');
            if (commas != width - 1) {
                answer = Py_False;
                break;
            }
        }
        else if ((PyObject *)Py_TYPE(record) == quoted_type) {
            Fields fields;
            if (!fields_open(&fields, record, quoted_type, fields_name)) {
                answer = Py_None;  /* no list of fields: not one of ours */
                break;
            }
            if (PyList_GET_SIZE(fields.fields) != width) {
                answer = Py_False;
                break;
            }
        }
        else {
            answer = Py_None;
            break;
        }
    }
    Py_DECREF(fields_name);
    return Py_NewRef(answer);
}

static PyMethodDef methods[] = {
    {"count_equal_fields", count_equal_fields, METH_VARARGS,
     "count_equal_fields(expected, candidate, width, column, quoted_type) -> (equal_fields, "
     "equal_at_column) | None\n\nThe equal fields of the pairs of records; None unless every "
     "record has exactly `width` fields."},
    {"plain_widths", plain_widths, METH_VARARGS,
     "plain_widths(records, width, quoted_type) -> bool | None\n\nWhether every record is one "
     "line exactly `width` fields wide; None for a record of another class."},
    {"first_fields", first_fields, METH_O,
     "first_fields(records) -> list[str] | None\n\nEach record's text before its first comma; "
     "None unless every record is a str and none of those texts holds a quote."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef plainfields_module = {
    PyModuleDef_HEAD_INIT,
    "provebench.pilot._plainfields",
    "The final-state scorer's inner loops over records, compiled (docs/score-final.md).",
    0,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__plainfields(void)
{
    return PyModuleDef_Init(&plainfields_module);
}
