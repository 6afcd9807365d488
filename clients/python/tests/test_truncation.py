"""A value never answers wrong after damage: every truncation of every vector,
and every vector with a byte more, is refused by its reader and by load()."""
import bloomtype


def refused(reader, data):
    try:
        reader(data) if callable(reader) and not isinstance(reader, type) else \
            reader.from_bytes(data)
    except bloomtype.FormatError:
        return True
    return False


def test_every_truncation_is_refused(filters):
    for v in filters:
        data = bytes.fromhex(v["hex"])
        reader = bloomtype.READERS[v["type"]]
        for n in range(len(data)):
            assert refused(reader, data[:n]), "%s cut to %d bytes" % (v["name"], n)
            assert refused(bloomtype.load, data[:n]), "%s cut to %d bytes" % (v["name"], n)


def test_a_byte_more_is_refused(filters):
    for v in filters:
        data = bytes.fromhex(v["hex"])
        reader = bloomtype.READERS[v["type"]]
        for extra in (b"\0", b"\0" * 8, b"\1" * 64):
            if v["kind"] in (7, 8) and len(extra) % 8 == 0 and len(data) + len(extra) > 64:
                # a light state's slots are the length's: slots not in use
                # are accepted (as by the server) and change no answer
                f = reader.from_bytes(data + extra)
                assert f.info()["slots"] == int.from_bytes(data[56:64], "little") + len(extra) // 8
                g = reader.from_bytes(data)
                assert [f.contains_hash(h) for h in range(0, 2 ** 64, 2 ** 54)] == \
                    [g.contains_hash(h) for h in range(0, 2 ** 64, 2 ** 54)]
                continue
            assert refused(reader, data + extra), v["name"]


def test_every_text_form_truncation_is_refused(filters):
    for v in filters[:5]:
        text = "\\x" + v["hex"]
        reader = bloomtype.READERS[v["type"]]
        for n in range(len(text)):
            try:
                reader.from_hex(text[:n])
            except bloomtype.FormatError:
                continue
            raise AssertionError("%s text cut to %d characters" % (v["name"], n))
