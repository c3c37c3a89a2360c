package lockstep.nes.verifier;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import lockstep.nes.core.trace.TracePair;

/**
 * A divergence's trace in a JSON report: {@code {"a": [...], "b": [...], "firstDifference": i}},
 * each array the engine's instructions in nestest's log form, oldest first, aligned at the
 * divergence; {@code firstDifference} is the index of the first differing line (-1: none).
 */
public final class TraceJson extends StdSerializer<TracePair> {
    public TraceJson() {
        super(TracePair.class);
    }

    @Override
    public void serialize(TracePair trace, JsonGenerator g, SerializerProvider provider) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("a");
        for (String line : trace.a()) {
            g.writeString(line);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("b");
        for (String line : trace.b()) {
            g.writeString(line);
        }
        g.writeEndArray();
        g.writeNumberField("firstDifference", trace.firstDifference());
        g.writeEndObject();
    }
}
