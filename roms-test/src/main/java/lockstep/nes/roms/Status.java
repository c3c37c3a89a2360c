package lockstep.nes.roms;

import com.fasterxml.jackson.annotation.JsonValue;

/** The outcome of one ROM run. */
public enum Status {
    PASS("pass"),
    FAIL("fail"),
    /** The frame limit was reached before the ROM reported a result. */
    TIMEOUT("timeout"),
    /** The ROM could not be run (bad file, unsupported mapper, CPU jam, ...). */
    ERROR("error");

    private final String id;

    Status(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }
}
