{{/*
Names and labels, after the conventions of the well-kept public charts: nameOverride and
fullnameOverride, 63-character names, the standard app.kubernetes.io labels plus helm.sh/chart,
and selector labels that never change between releases of the chart.
*/}}

{{- define "openpm.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openpm.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "openpm.namespace" -}}
{{- default .Release.Namespace .Values.namespaceOverride -}}
{{- end -}}

{{- define "openpm.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openpm.selectorLabels" -}}
app.kubernetes.io/name: {{ include "openpm.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "openpm.labels" -}}
{{ include "openpm.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | trunc 63 | quote }}
app.kubernetes.io/component: gateway
app.kubernetes.io/part-of: openpm
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ include "openpm.chart" . }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
The annotations of an object as YAML (commonAnnotations plus `extra`), or nothing. Use:
  {{- with include "openpm.annotations" (dict "extra" .Values.service.annotations "context" $) }}
  annotations:
    {{- . | nindent 4 }}
  {{- end }}
*/}}
{{- define "openpm.annotations" -}}
{{- $all := merge (deepCopy (.extra | default dict)) (.context.Values.commonAnnotations | default dict) -}}
{{- if $all }}{{ toYaml $all }}{{ end -}}
{{- end -}}

{{- define "openpm.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "openpm.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "openpm.metricsServiceName" -}}
{{- printf "%s-metrics" (include "openpm.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The IP families of a Service (both Services: what reaches the API reaches the metrics too). */}}
{{- define "openpm.serviceIpFamilies" -}}
{{- with .Values.service.ipFamilyPolicy }}
ipFamilyPolicy: {{ . }}
{{- end }}
{{- with .Values.service.ipFamilies }}
ipFamilies:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- define "openpm.image" -}}
{{- $repo := .Values.image.repository -}}
{{- if .Values.image.registry }}{{ $repo = printf "%s/%s" .Values.image.registry $repo }}{{ end -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repo .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* The label matchers of every alert query: this release's series. */}}
{{- define "openpm.alertSelector" -}}
{{- .Values.metrics.prometheusRule.selector | default (printf "namespace=%q" (include "openpm.namespace" .)) -}}
{{- end -}}

{{/*
The label matcher of this release's scrape targets, for the alert on `up`: the Prometheus
Operator labels a ServiceMonitor's targets with their Service's name; annotation-based discovery
labels them with the pod's name (Prometheus's usual `pod` relabelling).
*/}}
{{- define "openpm.targetSelector" -}}
{{- if .Values.metrics.serviceMonitor.enabled -}}
{{- printf "service=%q" (include "openpm.metricsServiceName" .) -}}
{{- else -}}
{{- printf "pod=~%q" (printf "%s-[a-z0-9]+-[a-z0-9]+" (include "openpm.fullname" .)) -}}
{{- end -}}
{{- end -}}

{{/*
The name of a monitoring object (ServiceMonitor, PrometheusRule, dashboard ConfigMap) that may
live outside the release's namespace. There, in a namespace shared by many releases, the
release's namespace leads the name, so two releases of one name in two namespaces do not
collide. Use: include "openpm.monitoringName" (dict "context" $ "namespace" $ns "suffix" "-dashboard")
*/}}
{{- define "openpm.monitoringName" -}}
{{- $own := include "openpm.namespace" .context -}}
{{- $name := printf "%s%s" (include "openpm.fullname" .context) .suffix -}}
{{- if ne .namespace $own -}}
{{- $name = printf "%s-%s" $own $name -}}
{{- end -}}
{{- if gt (len $name) 63 -}}
{{- $name = printf "%s-%s" ($name | trunc 54 | trimSuffix "-") (sha256sum $name | trunc 8) -}}
{{- end -}}
{{- $name -}}
{{- end -}}

{{/* The Grafana dashboard's uid (at most 40 characters), one per release and namespace. */}}
{{- define "openpm.dashboardUid" -}}
{{- printf "openpm-%s" (sha256sum (printf "%s/%s" (include "openpm.namespace" .) .Release.Name) | trunc 16) -}}
{{- end -}}

{{/* A seccomp profile: its type, and the profile's path only for Localhost (the API refuses it otherwise). */}}
{{- define "openpm.seccompProfile" -}}
type: {{ .type }}
{{- if eq .type "Localhost" }}
localhostProfile: {{ required "seccompProfile.localhostProfile is required with type Localhost" .localhostProfile | quote }}
{{- end }}
{{- end -}}

{{/*
The TCP port of a `host:port` address, or `default` when it names none (an IPv6 address is
bracketed: `[fd00::1]:6379`). Use: include "openpm.portOf" (dict "address" "redis:6380" "default" 6379)
*/}}
{{- define "openpm.portOf" -}}
{{- regexFind ":[0-9]+$" .address | trimPrefix ":" | default (toString .default) -}}
{{- end -}}

{{/*
The ports the egress rule to Redis opens, as a JSON list: networkPolicy.redisEgress.ports, or
those of redis.url (6379 where it names none; in Sentinel mode the URL names the master group,
whose nodes the sentinels announce, on 6379 unless redisEgress.ports says otherwise),
redis.clusterNodes and redis.sentinels (26379 where they name none).
*/}}
{{- define "openpm.redisEgressPorts" -}}
{{- $ports := list -}}
{{- range .Values.networkPolicy.redisEgress.ports -}}
{{- $ports = append $ports (int .) -}}
{{- end -}}
{{- if not $ports -}}
{{- $ports = append $ports (include "openpm.portOf" (dict "address" (urlParse .Values.redis.url).host "default" 6379) | int) -}}
{{- range .Values.redis.clusterNodes -}}
{{- $ports = append $ports (include "openpm.portOf" (dict "address" . "default" 6379) | int) -}}
{{- end -}}
{{- range .Values.redis.sentinels -}}
{{- $ports = append $ports (include "openpm.portOf" (dict "address" . "default" 26379) | int) -}}
{{- end -}}
{{- end -}}
{{- $ports | uniq | toJson -}}
{{- end -}}

{{/* The ports the egress rule to the backend opens, as a JSON list: networkPolicy.upstreamEgress.ports, or upstream.url's. */}}
{{- define "openpm.upstreamEgressPorts" -}}
{{- $ports := list -}}
{{- range .Values.networkPolicy.upstreamEgress.ports -}}
{{- $ports = append $ports (int .) -}}
{{- end -}}
{{- if not $ports -}}
{{- $url := urlParse .Values.upstream.url -}}
{{- $ports = append $ports (include "openpm.portOf" (dict "address" $url.host "default" (ternary 443 80 (eq $url.scheme "https"))) | int) -}}
{{- end -}}
{{- $ports | uniq | toJson -}}
{{- end -}}

{{/* Values every install needs; failing here names the value instead of a crashing pod. */}}
{{- define "openpm.validate" -}}
{{- $_ := required "upstream.url is required: the base URL of the backend's internal API" .Values.upstream.url -}}
{{- $_ := required "redis.url is required: replicas share limits, confirm-token claims and the kill switch through Redis" .Values.redis.url -}}
{{- $_ := required "existingSecret is required: create the Secret first (see NOTES or the chart's README)" .Values.existingSecret -}}
{{- if and (eq .Values.redis.mode "sentinel") (empty .Values.redis.sentinels) -}}
{{- fail "redis.sentinels is required with redis.mode=sentinel" -}}
{{- end -}}
{{- if and .Values.autoscaling.hpa.enabled (gt (int .Values.autoscaling.hpa.minReplicas) (int .Values.autoscaling.hpa.maxReplicas)) -}}
{{- fail "autoscaling.hpa.minReplicas must not exceed autoscaling.hpa.maxReplicas" -}}
{{- end -}}
{{- /* The grace period counts from the pod's deletion: the preStop pause first, then SIGTERM and
the gateway's drain (SHUTDOWN_GRACE_MS in src/server.ts). Shorter, and SIGKILL cuts the drain. */ -}}
{{- $drainSeconds := 10 -}}
{{- if le (int .Values.terminationGracePeriodSeconds) (add (int .Values.preStopSleepSeconds) $drainSeconds) -}}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be more than preStopSleepSeconds (%d) plus the gateway's %d s drain" (int .Values.terminationGracePeriodSeconds) (int .Values.preStopSleepSeconds) $drainSeconds) -}}
{{- end -}}
{{- /* Every resource's url starts with it: a placeholder would be served to every client. */ -}}
{{- $_ := required "env.PUBLIC_WEB_URL is required: the app's public web address, the base of every resource's url (e.g. https://app.openpm.example)" .Values.env.PUBLIC_WEB_URL -}}
{{- /* /readyz answers once a Redis PING settles, and REDIS_COMMAND_TIMEOUT_MS bounds that PING
(src/app.ts, src/store/redis.ts). At or past the probe's timeout, a hung Redis fails the probe of
every pod at once, and the Service loses all of them although reads keep working without Redis. */ -}}
{{- if .Values.readinessProbe.enabled -}}
{{- if ge (int .Values.redis.commandTimeoutMs) (mul (int .Values.readinessProbe.timeoutSeconds) 1000) -}}
{{- fail (printf "redis.commandTimeoutMs (%d) must be below readinessProbe.timeoutSeconds (%d s = %d ms): /readyz waits on a Redis PING bounded by it, so a hung Redis would fail every pod's readiness at once" (int .Values.redis.commandTimeoutMs) (int .Values.readinessProbe.timeoutSeconds) (mul (int .Values.readinessProbe.timeoutSeconds) 1000)) -}}
{{- end -}}
{{- end -}}
{{- /* A budget that lets no pod go blocks every node drain (and cluster upgrades) for good. The
replica count it is judged against is the fewest there may be: the autoscaler's minimum. A
percentage is rounded up, as the disruption controller rounds it. */ -}}
{{- if and .Values.pdb.create (ne (toString .Values.pdb.minAvailable) "") -}}
{{- $replicas := ternary (int .Values.autoscaling.hpa.minReplicas) (int .Values.replicaCount) .Values.autoscaling.hpa.enabled -}}
{{- $minAvailable := toString .Values.pdb.minAvailable -}}
{{- $keep := 0 -}}
{{- if hasSuffix "%" $minAvailable -}}
{{- $keep = div (add (mul (trimSuffix "%" $minAvailable | int) $replicas) 99) 100 -}}
{{- else -}}
{{- $keep = int $minAvailable -}}
{{- end -}}
{{- if and (gt $replicas 0) (ge (int $keep) $replicas) -}}
{{- fail (printf "pdb.minAvailable (%s) must be below the replica count (%d, %s): otherwise no pod may ever be evicted and every node drain blocks" $minAvailable $replicas (ternary "autoscaling.hpa.minReplicas" "replicaCount" .Values.autoscaling.hpa.enabled)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
