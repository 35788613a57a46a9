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
{{- end -}}
