package lockstep.nes.roms;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A frame-hash check: the hash of the 9-bit picture after {@code frame} frames, recorded once a
 * person looked at the PNG and found it right; {@code note} says who, when and what it shows
 * ("checked by NAME on DATE: ..."). A null or empty hash means not recorded yet.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HashCheck(
        @JsonProperty(value = "frame", required = true) int frame,
        @JsonProperty("hash") String hash,
        @JsonProperty("note") String note) {

    public HashCheck {
        if (frame < 1) {
            throw new IllegalArgumentException("hash frame must be >= 1, got " + frame);
        }
    }

    /** A prefix of notes written by the update mode: the hash awaits a person's look. */
    public static final String UNCHECKED = "UNCHECKED";

    public boolean recorded() {
        return hash != null && !hash.isEmpty();
    }

    /** True when a person looked at the picture: the note starts with "checked by ". */
    public boolean checked() {
        return recorded() && note != null && note.startsWith("checked by ");
    }
}
