package lockstep.nes.state;

import java.util.List;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * JSON view of a state description: sections become objects, scalars numbers (bools
 * true/false), byte arrays lowercase hex strings (two digits per byte, index 0 first) and int
 * arrays arrays of numbers. Field order is the description's order.
 */
public final class StateJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StateJson() {
    }

    /** The state of {@code entries} as one JSON object. */
    public static ObjectNode state(List<StateEntry> entries) {
        ObjectNode root = MAPPER.createObjectNode();
        TreeMap<String, ObjectNode> sections = new TreeMap<>();
        for (StateEntry e : entries) {
            String path = e.path();
            int dot = path.lastIndexOf('.');
            ObjectNode parent = dot < 0 ? root : sections.get(path.substring(0, dot));
            if (parent == null) {
                parent = root;
            }
            String name = path.substring(dot + 1);
            switch (e.tag()) {
                case EntryTag.SECTION -> sections.put(path, parent.putObject(name));
                case EntryTag.BOOL -> parent.put(name, e.value() != 0);
                case EntryTag.BYTES -> parent.put(name, EntryTag.hex(e.bytes()));
                case EntryTag.INTS -> {
                    ArrayNode a = parent.putArray(name);
                    for (int v : e.ints()) {
                        a.add(v);
                    }
                }
                default -> parent.put(name, e.value());
            }
        }
        return root;
    }

    /** A saved state as JSON: format version, rom id, cycle, frame and the state. */
    public static String dump(int format, String rom, long cycle, long frame, List<StateEntry> entries) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", format);
        root.put("rom", rom);
        root.put("cycle", cycle);
        root.put("frame", frame);
        root.set("state", state(entries));
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
