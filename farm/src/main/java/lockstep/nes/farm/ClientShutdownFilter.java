package lockstep.nes.farm;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Drops jetcd's warnings about calls that end because the farm closed the client itself (gRPC's
 * "Channel shutdownNow invoked"): a call still waiting for a server that never answered is ended
 * that way when a process gives up at start or stops, and the farm has already said why in its
 * own line. Every other library warning passes.
 */
public final class ClientShutdownFilter extends Filter<ILoggingEvent> {
    @Override
    public FilterReply decide(ILoggingEvent event) {
        String m = event.getFormattedMessage();
        return event.getLoggerName().startsWith("io.etcd.jetcd") && m != null && m.contains("Channel shutdownNow invoked")
                ? FilterReply.DENY
                : FilterReply.NEUTRAL;
    }
}
