/*
 * provebench.pilot.score_final._plainfields: the final-state scorer's inner loops over records, compiled
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
 *
 * The id join (_score_final_idjoin.py) has three of its own: `hash_first_fields(records, part,
 * keep_all)` and `own_lines(text, part, keep_all)` hash each row's id and keep the rows of one
 * parity of that hash (from a batch's records, or straight from its text, making only the kept
 * lines), and `take_met(keyed, hashes, met)` looks the hashes up and marks what it finds.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
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

/* Where the id of the line [start, end) of `text` (of `kind`) ends: at its first comma, or at
 * `end`; -1 when the id holds a quote (csv.reader reads a quoted first field its own way, so
 * every caller declines it). */
static Py_ssize_t
id_end(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t comma = find_char(kind, data, start, end, ',');
    return find_char(kind, data, start, comma, '"') == comma ? comma : -1;
}

/* `id_end` of a whole record; -1 also when the record is no str whose characters can be read
 * (a record spanning lines, a list). */
static Py_ssize_t
record_id_end(PyObject *record)
{
    if (!PyUnicode_Check(record) || !is_ready(record)) {
        return -1;
    }
    return id_end(PyUnicode_KIND(record), PyUnicode_DATA(record), 0,
                  PyUnicode_GET_LENGTH(record));
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
        Py_ssize_t end = record_id_end(record);
        if (end < 0) {
            Py_DECREF(texts);
            Py_RETURN_NONE;  /* a record spanning lines (a list), or a quoted id */
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
 * Whether every record is one line exactly `width` fields wide, as the id join's
 * `check_plain_records` (_score_final_idjoin.py) asks: an exact `str` holding exactly
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

/* hash() of a str of one byte a character holding these bytes (str hashes its characters'
 * bytes), without making the str. */
static Py_hash_t
hash_bytes(const char *bytes, Py_ssize_t size)
{
#if PY_VERSION_HEX >= 0x030E0000
    return Py_HashBuffer(bytes, size);
#else
    return _Py_HashBytes(bytes, size);
#endif
}

/* The rows of a part, as the id join shares them out (_score_final_idjoin.py, `_own_rows`):
 * each row's id hashed as `hash()` hashes it, every hash kept in order when asked (for the
 * order check), and the rows whose hash has the parity `part` (0 or 1; -1: every row) kept
 * with their hashes. */
typedef struct {
    int part;
    int64_t *all;          /* every hash, in order; NULL when not asked */
    Py_ssize_t room;       /* how many hashes `all` has room for */
    PyObject *own;         /* the rows of `part` */
    PyObject *own_hashes;  /* and their hashes */
    Py_ssize_t rows;       /* rows hashed so far */
} Shares;

/* Room for the hashes of `rows` rows (more are made room for as they come); 0 with an exception
 * set when that fails. */
static int
shares_open(Shares *shares, int part, int keep_all, Py_ssize_t rows)
{
    shares->part = part;
    shares->rows = 0;
    shares->all = NULL;
    shares->room = 0;
    shares->own = shares->own_hashes = NULL;
    if (part < -1 || part > 1) {
        PyErr_SetString(PyExc_ValueError, "part is 0, 1 or -1");
        return 0;
    }
    if (keep_all) {
        shares->room = rows > 0 ? rows : 1;
        shares->all = PyMem_New(int64_t, shares->room);
        if (shares->all == NULL) {
            PyErr_NoMemory();
            return 0;
        }
    }
    shares->own = PyList_New(0);
    shares->own_hashes = PyList_New(0);
    return shares->own != NULL && shares->own_hashes != NULL;
}

static void
shares_drop(Shares *shares)
{
    PyMem_Free(shares->all);
    shares->all = NULL;
    Py_CLEAR(shares->own);
    Py_CLEAR(shares->own_hashes);
}

/* Close the shares: `*all` is every hash as the bytes of native 8-byte integers (what
 * `array("q").tobytes()` holds), or None when not asked; `own` and `own_hashes` stay for the
 * caller. 0 with an exception set, and everything dropped, when that fails. */
static int
shares_close(Shares *shares, PyObject **all)
{
    *all = shares->all == NULL
               ? Py_NewRef(Py_None)
               : PyBytes_FromStringAndSize((const char *)shares->all,
                                           shares->rows * (Py_ssize_t)sizeof(int64_t));
    if (*all == NULL) {
        shares_drop(shares);
        return 0;
    }
    PyMem_Free(shares->all);
    shares->all = NULL;
    return 1;
}

/* Hash the id [start, end) of `source` as the next row's. 1 when the row is of the part (then
 * `*hash` is its hash, a new reference for `shares_keep`), 0 when not, -1 on an error. */
static int
shares_hash(Shares *shares, PyObject *source, Py_ssize_t start, Py_ssize_t end,
            PyObject **hash)
{
    *hash = NULL;
    Py_hash_t value;
    if (PyUnicode_KIND(source) == PyUnicode_1BYTE_KIND) {
        value = hash_bytes((const char *)PyUnicode_DATA(source) + start, end - start);
    }
    else {
        PyObject *id = PyUnicode_Substring(source, start, end);
        if (id == NULL) {
            return -1;
        }
        value = PyObject_Hash(id);
        Py_DECREF(id);
    }
    if (value == -1) {
        return -1;
    }
    if (shares->all != NULL) {
        if (shares->rows == shares->room) {
            Py_ssize_t room = shares->room * 2;
            int64_t *all = room > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(int64_t)
                               ? NULL
                               : PyMem_Realloc(shares->all, (size_t)room * sizeof(int64_t));
            if (all == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            shares->all = all;
            shares->room = room;
        }
        shares->all[shares->rows] = (int64_t)value;
    }
    shares->rows++;
    /* `hash & 1` of a Python int is its two's-complement parity, as here. */
    if (shares->part != -1 && (int)(value & 1) != shares->part) {
        return 0;
    }
    *hash = PyLong_FromSsize_t((Py_ssize_t)value);
    return *hash == NULL ? -1 : 1;
}

/* Keep a row of the part with its hash (taken over from `shares_hash`); 0 on an error. */
static int
shares_keep(Shares *shares, PyObject *row, PyObject *hash)
{
    int kept = PyList_Append(shares->own, row) == 0 &&
               PyList_Append(shares->own_hashes, hash) == 0;
    Py_DECREF(hash);
    return kept;
}

/* hash_first_fields(records, part, keep_all) -> (all_hashes | None, own_records, own_hashes)
 *                                              | None
 *
 * The id join's first step over a batch (_score_final_idjoin.py): each record's id, the text
 * before its first comma as `first_fields` cuts it, hashed as `hash()` hashes it, and the
 * records whose id hash has the parity `part` (0 or 1; -1 keeps every record) with their
 * hashes, as `_own_rows` selects them on its Python road, without a list of ids, of parities
 * or of every hash in between. `all_hashes` is every record's hash, in order, when `keep_all`
 * (the order check), as native 8-byte integers (what `array("q").tobytes()` holds), else
 * None. None, for the caller's own road, where `first_fields` declines or an id is empty (that
 * road counts a row without an id apart). */
static PyObject *
hash_first_fields(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *records;
    int part, keep_all;
    if (!PyArg_ParseTuple(args, "O!ip:hash_first_fields", &PyList_Type, &records, &part,
                          &keep_all)) {
        return NULL;
    }
    /* Our own copy of the list: a finalizer that the garbage collector runs while an id is
     * made cannot change it. */
    PyObject *held = PyList_GetSlice(records, 0, PyList_GET_SIZE(records));
    if (held == NULL) {
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(held);
    /* Every record is looked at first, so that a decline changes and makes nothing. */
    for (Py_ssize_t index = 0; index < count; index++) {
        if (record_id_end(PyList_GET_ITEM(held, index)) <= 0) {
            Py_DECREF(held);
            Py_RETURN_NONE;  /* a record spanning lines (a list), an empty or a quoted id */
        }
    }
    Shares shares;
    int ok = shares_open(&shares, part, keep_all, count);
    for (Py_ssize_t index = 0; ok && index < count; index++) {
        PyObject *record = PyList_GET_ITEM(held, index);
        PyObject *hash;
        int mine = shares_hash(&shares, record, 0, record_id_end(record), &hash);
        ok = mine >= 0 && (!mine || shares_keep(&shares, record, hash));
    }
    Py_DECREF(held);
    PyObject *all;
    if (!ok) {
        shares_drop(&shares);
        return NULL;
    }
    if (!shares_close(&shares, &all)) {
        return NULL;
    }
    return Py_BuildValue("(NNN)", all, shares.own, shares.own_hashes);
}

/* Where the line [start, feed) of a text ends: at its line feed, or, with `crlf` (and a line
 * feed at `feed`), before the carriage return that ends it (`_fast_records` cuts "\r\n" as one
 * line end). */
static Py_ssize_t
line_end(int kind, const void *data, Py_ssize_t start, Py_ssize_t feed, int crlf)
{
    if (crlf && feed > start && PyUnicode_READ(kind, data, feed - 1) == '\r') {
        return feed - 1;
    }
    return feed;
}

/* own_lines(text, part, keep_all, crlf)
 *     -> (records, all_hashes | None, own_records, own_hashes, quoted) | None
 *
 * `hash_first_fields` over the lines of a piece of text that the scorer's CSV stream splits at
 * its line ends alone (no line over the field size limit; a carriage return only before a line
 * feed, and then `crlf`, which drops each line's final one: the caller checks), making only the
 * lines of `part` into strings: the records are the non-empty lines, as `_fast_records` gives
 * them, and `records` is how many there are. A line holding a quote may
 * be a record csv.reader reads otherwise, or part of one spanning lines: `quoted` lists every
 * such line, in order, as (its index in `own_records`, or -1 when it is not of `part`; the
 * line), for the caller to parse as `_fast_records` does. None where `hash_first_fields` would
 * decline: an empty id, or a quote before a line's first comma. One pass over the text: what
 * was made before a decline is dropped (a first pass that only checked cost a quarter more). */
static PyObject *
own_lines(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *text;
    int part, keep_all, crlf;
    if (!PyArg_ParseTuple(args, "Uipp:own_lines", &text, &part, &keep_all, &crlf)) {
        return NULL;
    }
    if (!is_ready(text)) {
        Py_RETURN_NONE;
    }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    Py_ssize_t records = 0;
    int declined = 0;
    Shares shares;
    PyObject *quoted = PyList_New(0);
    /* Room for the hashes of lines of 64 characters; more is made as needed. */
    int ok = shares_open(&shares, part, keep_all, length / 64 + 16) && quoted != NULL;
    for (Py_ssize_t start = 0, next; ok && start < length; start = next + 1) {
        next = find_char(kind, data, start, length, '\n');
        Py_ssize_t end = line_end(kind, data, start, next, crlf && next < length);
        if (end == start) {
            continue;  /* a blank line is no record */
        }
        Py_ssize_t comma = find_char(kind, data, start, end, ',');
        Py_ssize_t quote = find_char(kind, data, start, end, '"');
        if (comma == start || quote < comma) {
            declined = 1;  /* an empty id, or a quote in it: what was made is dropped */
            break;
        }
        records++;
        PyObject *hash;
        int mine = shares_hash(&shares, text, start, comma, &hash);
        int has_quote = quote != end;
        if (mine < 0) {
            ok = 0;
        }
        else if (mine || has_quote) {
            PyObject *line = PyUnicode_Substring(text, start, end);
            ok = line != NULL;
            if (ok && has_quote) {
                Py_ssize_t place = mine ? PyList_GET_SIZE(shares.own) : -1;
                PyObject *entry = Py_BuildValue("(nO)", place, line);
                ok = entry != NULL && PyList_Append(quoted, entry) == 0;
                Py_XDECREF(entry);
            }
            if (mine) {
                ok = ok ? shares_keep(&shares, line, hash) : (Py_DECREF(hash), 0);
            }
            Py_XDECREF(line);
        }
    }
    if (!ok || declined) {
        shares_drop(&shares);
        Py_XDECREF(quoted);
        if (!ok) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *all;
    if (!shares_close(&shares, &all)) {
        Py_DECREF(quoted);
        return NULL;
    }
    return Py_BuildValue("(nNNNN)", records, all, shares.own, shares.own_hashes, quoted);
}

/* How many hashes `take_met` looks up before it marks them. The look-ups of a chunk depend on
 * nothing but their own hash, so the processor runs their cache misses side by side; a mark
 * (a second look-up that writes) between two of them stops that. Marked after its chunk, each
 * entry is still in the cache. Measured on half a million shuffled hashes: 0.13 s against
 * 0.22 s for marking each as it is found; chunks of 64 to 256 do as well, 512 and more (whose
 * entries no longer stay in the cache) lose it again. */
#define TAKE_CHUNK 128

/* take_met(keyed, hashes, met) -> list | None
 *
 * The id join's look-up of a batch (_score_final_idjoin.py): for each hash in turn, the value
 * `keyed.get(hash)`, and, when that value is neither None nor `met`, `keyed[hash] = met`. So a
 * hash met twice in the batch reads `met` the second time, as a hash met in an earlier batch
 * does; the caller holds either row (a repeated id) until the candidate is read. The hashes are
 * taken `TAKE_CHUNK` at a time: looked up, then marked (a repeat within the chunk finds its
 * mark there, and reads `met`). None, before anything is changed, unless `keyed` is exactly a
 * dict and every hash exactly an int (whose look-up runs no Python code). */
static PyObject *
take_met(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *keyed, *hashes, *met;
    if (!PyArg_ParseTuple(args, "O!O!O:take_met", &PyDict_Type, &keyed, &PyList_Type, &hashes,
                          &met)) {
        return NULL;
    }
    if (!PyDict_CheckExact(keyed)) {
        Py_RETURN_NONE;
    }
    Py_ssize_t count = PyList_GET_SIZE(hashes);
    for (Py_ssize_t index = 0; index < count; index++) {
        if (!PyLong_CheckExact(PyList_GET_ITEM(hashes, index))) {
            Py_RETURN_NONE;
        }
    }
    PyObject *found = PyList_New(count);
    if (found == NULL) {
        return NULL;
    }
    /* An int's hash and equality run no Python code, and neither does replacing a value that
     * is held here: the list and the dict change only through this loop, so a value looked up
     * stays alive, borrowed, until the chunk takes its reference. */
    PyObject *values[TAKE_CHUNK];
    for (Py_ssize_t first = 0; first < count; first += TAKE_CHUNK) {
        Py_ssize_t size = count - first < TAKE_CHUNK ? count - first : TAKE_CHUNK;
        for (Py_ssize_t offset = 0; offset < size; offset++) {
            PyObject *hash = PyList_GET_ITEM(hashes, first + offset);
            values[offset] = PyDict_GetItemWithError(keyed, hash);
            if (values[offset] == NULL && PyErr_Occurred()) {
                Py_DECREF(found);
                return NULL;
            }
        }
        for (Py_ssize_t offset = 0; offset < size; offset++) {
            PyObject *value = values[offset] == NULL ? Py_None : values[offset];
            PyList_SET_ITEM(found, first + offset, Py_NewRef(value));
        }
        for (Py_ssize_t offset = 0; offset < size; offset++) {
            PyObject *value = values[offset];
            if (value == NULL || value == met) {
                continue;
            }
            PyObject *hash = PyList_GET_ITEM(hashes, first + offset);
            PyObject *now = PyDict_GetItemWithError(keyed, hash);
            if (now == met) {  /* marked by an earlier row of this chunk: a repeat */
                PyList_SET_ITEM(found, first + offset, Py_NewRef(met));
                Py_DECREF(value);
            }
            else if (now == NULL && PyErr_Occurred()) {
                Py_DECREF(found);
                return NULL;
            }
            else if (PyDict_SetItem(keyed, hash, met) < 0) {
                Py_DECREF(found);
                return NULL;
            }
        }
    }
    return found;
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
    {"hash_first_fields", hash_first_fields, METH_VARARGS,
     "hash_first_fields(records, part, keep_all) -> (all_hashes | None, own_records, "
     "own_hashes) | None\n\nThe hashes of the records' ids and the records of one parity of "
     "them; None where first_fields declines or an id is empty."},
    {"own_lines", own_lines, METH_VARARGS,
     "own_lines(text, part, keep_all, crlf) -> (records, all_hashes | None, own_records, "
     "own_hashes, quoted) | None\n\nhash_first_fields over the non-empty lines of a piece of "
     "text, making only the lines of `part` (and those holding a quote, listed in `quoted`)."},
    {"take_met", take_met, METH_VARARGS,
     "take_met(keyed, hashes, met) -> list | None\n\nkeyed.get of each hash, each value found "
     "replaced by `met` at once; None unless keyed is a dict and every hash an int."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef plainfields_module = {
    PyModuleDef_HEAD_INIT,
    "provebench.pilot.score_final._plainfields",
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
