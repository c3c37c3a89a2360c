package lockstep.nes.farm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The farm's event log: SLF4J loggers, and the job, ROM and token of the attempt a thread is
 * working on in the logging context ({@code job}, {@code rom}, {@code token}), so every line a
 * job causes names them (farm's logback.xml prints them on each line).
 */
final class JobLog {
    static final Logger WORKER = LoggerFactory.getLogger("lockstep.nes.farm.worker");
    static final Logger COORDINATOR = LoggerFactory.getLogger("lockstep.nes.farm.coordinator");
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobLog() {
    }

    /** This thread now works on {@code jobId} under {@code token}; {@code spec} names its ROM, if any. */
    static void enter(long jobId, long token, String spec) {
        MDC.put("job", Long.toString(jobId));
        MDC.put("token", Long.toString(token));
        MDC.put("rom", rom(spec));
    }

    static void leave() {
        MDC.remove("job");
        MDC.remove("token");
        MDC.remove("rom");
    }

    /** The spec's {@code rom} field, or "-". */
    static String rom(String spec) {
        if (spec == null) {
            return "-";
        }
        try {
            JsonNode n = JSON.readTree(spec);
            return n != null && n.hasNonNull("rom") ? n.get("rom").asText() : "-";
        } catch (Exception e) {
            return "-";
        }
    }
}
