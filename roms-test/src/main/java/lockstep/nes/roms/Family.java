package lockstep.nes.roms;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a test ROM reports its result (see ../shared/roms/README.md). */
public enum Family {
    /** blargg's $6000 protocol: status at $6000, signature DE B0 61 at $6001, text at $6004. */
    STATUS_6000("6000"),
    /** blargg's 2005 tests: result byte in zero page ($01 passed, $02+ the failing test). */
    F8("f8"),
    /** Text the ROM prints into the nametable. */
    SCREEN("screen"),
    /** Hashes of the 9-bit picture at given frames, each checked once by a person. */
    FRAMEHASH("framehash"),
    /** nestest in automation mode against its golden log. */
    NESTEST("nestest");

    private final String id;

    Family(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static Family of(String id) {
        for (Family f : values()) {
            if (f.id.equals(id)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown family \"" + id + "\" (6000, f8, screen, framehash, nestest)");
    }
}
