package lockstep.nes.verifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The receiver of Alertmanager's webhook ({@code POST /alerts}). A firing
 * {@code LockstepStateDivergence} alert for a known session orders that session's rollback.
 * A bad payload, an unknown session or a missing/wrong bearer token gets a 4xx and changes
 * nothing.
 */
public final class AlertWebhook {
    public static final String ALERT_NAME = "LockstepStateDivergence";
    /** The largest payload accepted; a larger one is answered 413 (Alertmanager's are a few KiB). */
    public static final int MAX_BODY = 1 << 20;

    /** What a session does when an alert orders its rollback. */
    public interface RollbackTarget {
        /** Performs (or schedules and waits for) the rollback; returns a one-line outcome. */
        Outcome rollbackOnAlert();
    }

    /** The result of a rollback order. */
    public record Outcome(boolean done, String message) {
    }

    /** An HTTP answer: status and a one-line body. */
    public record Response(int status, String body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final byte[] token;
    private final Map<String, RollbackTarget> sessions = new ConcurrentHashMap<>();

    /** @param bearerToken the token Alertmanager must send; requests without it are refused */
    public AlertWebhook(String bearerToken) {
        if (bearerToken == null || bearerToken.isBlank()) {
            throw new IllegalArgumentException("the alert webhook needs a bearer token");
        }
        this.token = bearerToken.getBytes(StandardCharsets.UTF_8);
    }

    public void register(String session, RollbackTarget target) {
        sessions.put(session, target);
    }

    public Response handle(String authorization, byte[] body) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return new Response(401, "missing bearer token");
        }
        byte[] given = authorization.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, token)) {
            return new Response(403, "wrong bearer token");
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (Exception e) {
            return new Response(400, "payload is not JSON");
        }
        if (root == null || !root.isObject() || !root.path("alerts").isArray()) {
            return new Response(400, "payload has no alerts array (not an Alertmanager webhook)");
        }
        String session = null;
        for (JsonNode alert : root.path("alerts")) {
            JsonNode labels = alert.path("labels");
            if (ALERT_NAME.equals(labels.path("alertname").asText())
                    && "firing".equals(alert.path("status").asText())) {
                if (!labels.path("session").isTextual()) {
                    return new Response(400, "firing alert has no session label");
                }
                String s = labels.path("session").asText();
                if (session != null && !session.equals(s)) {
                    return new Response(400, "alerts name more than one session");
                }
                session = s;
            }
        }
        if (session == null) {
            return new Response(200, "no firing " + ALERT_NAME + " alert: nothing to do");
        }
        RollbackTarget target = sessions.get(session);
        if (target == null) {
            return new Response(404, "unknown session " + session);
        }
        Outcome outcome = target.rollbackOnAlert();
        return new Response(outcome.done() ? 200 : 409, outcome.message());
    }
}
