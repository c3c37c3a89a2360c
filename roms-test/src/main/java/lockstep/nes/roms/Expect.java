package lockstep.nes.roms;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What the manifest expects of a ROM with the engine as it is. */
public enum Expect {
    /** Passes; a failure breaks the build and the exit code. */
    PASS("pass"),
    /** Fails on correct hardware too (e.g. it checks a console variant we do not emulate). */
    FAIL("fail"),
    /** Does not pass yet: the engine lacks something (the reason says what). */
    KNOWN_FAIL("known-fail");

    private final String id;

    Expect(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static Expect of(String id) {
        for (Expect e : values()) {
            if (e.id.equals(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown expect \"" + id + "\" (pass, fail, known-fail)");
    }
}
