"""The composition root: `open_services(url)` builds everything once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from w2c_tui.db.engine import as_database_url, display_url
from w2c_tui.db.store import Store
from w2c_tui.domain.database import DatabaseInfo
from w2c_tui.paths import default_db_url
from w2c_tui.services.assignments import AssignmentService
from w2c_tui.services.datasets import DatasetService
from w2c_tui.services.guidelines import GuidelineService
from w2c_tui.services.imports import ImportService
from w2c_tui.services.labels import LabelService
from w2c_tui.services.review import ReviewService
from w2c_tui.services.schemas import SchemaService

if TYPE_CHECKING:
    from w2c_tui.services.adjudication import AdjudicationService
    from w2c_tui.services.agreement import AgreementService
    from w2c_tui.services.cleaning import CleaningService
    from w2c_tui.services.critictool import CriticToolService
    from w2c_tui.services.critictool_agreement import CriticToolAgreementService
    from w2c_tui.services.critictool_metrics import CriticToolMetricsService
    from w2c_tui.services.critictool_review import CriticToolReviewService
    from w2c_tui.services.estimate import EstimateService
    from w2c_tui.services.exports import ExportService
    from w2c_tui.services.judge_compare import JudgeLabService
    from w2c_tui.services.merge import MergeService
    from w2c_tui.services.metrics import MetricsService
    from w2c_tui.services.preference import PreferenceService
    from w2c_tui.services.prompts import PromptService
    from w2c_tui.services.qa_summary import QASummaryService
    from w2c_tui.services.roles import RoleService
    from w2c_tui.services.runs import RunService
    from w2c_tui.services.schema_adjudication import SchemaAdjudicationService
    from w2c_tui.services.schema_agreement import SchemaAgreementService
    from w2c_tui.services.team import TeamService
    from w2c_tui.services.tracking import TrackingService


@dataclass
class Services:
    """Every service, sharing one store.

    The statistics services import numpy, scipy and scikit-learn: they are built on first use
    so that opening the review screen does not pay for them.
    """

    url: str
    store: Store
    datasets: DatasetService
    imports: ImportService
    review: ReviewService
    labels: LabelService
    assignments: AssignmentService
    guidelines: GuidelineService
    schemas: SchemaService
    _agreement: AgreementService | None = field(default=None, repr=False)
    _metrics: MetricsService | None = field(default=None, repr=False)
    _runs: RunService | None = field(default=None, repr=False)
    _team: TeamService | None = field(default=None, repr=False)
    _adjudication: AdjudicationService | None = field(default=None, repr=False)
    _qa: QASummaryService | None = field(default=None, repr=False)
    _cleaning: CleaningService | None = field(default=None, repr=False)
    _exports: ExportService | None = field(default=None, repr=False)
    _preference: PreferenceService | None = field(default=None, repr=False)
    _prompts: PromptService | None = field(default=None, repr=False)
    _critictool: CriticToolService | None = field(default=None, repr=False)

    @property
    def critictool_agreement(self) -> CriticToolAgreementService:
        """Agreement on CriticTool labels (numpy and the stats engine load on first use)."""
        from w2c_tui.services.critictool_agreement import CriticToolAgreementService

        return CriticToolAgreementService(self.store)

    @property
    def critictool_metrics(self) -> CriticToolMetricsService:
        """The official CriticTool metrics of stored predictions (the similarity model loads on
        first use)."""
        from w2c_tui.services.critictool_metrics import CriticToolMetricsService

        return CriticToolMetricsService(self.store)

    @property
    def critictool_review(self) -> CriticToolReviewService:
        """CriticTool review: samples, labels and the model's self-critique."""
        from w2c_tui.services.critictool_review import CriticToolReviewService

        return CriticToolReviewService(self.store)

    @property
    def schema_adjudication(self) -> SchemaAdjudicationService:
        """Adjudication of any label schema's disagreements."""
        from w2c_tui.services.schema_adjudication import SchemaAdjudicationService

        return SchemaAdjudicationService(self.store)

    @property
    def schema_agreement(self) -> SchemaAgreementService:
        """Agreement of a label schema per question (numpy and `krippendorff` on first use)."""
        from w2c_tui.services.schema_agreement import SchemaAgreementService

        return SchemaAgreementService(self.store)

    @property
    def agreement(self) -> AgreementService:
        """Agreement summaries and the calibration dashboard."""
        if self._agreement is None:
            from w2c_tui.services.agreement import AgreementService

            self._agreement = AgreementService(self.store)
        return self._agreement

    @property
    def tracking(self) -> TrackingService:
        """Runs, agreement decisions and reports logged to MLflow (`w2c mlflow`)."""
        from w2c_tui.services.tracking import TrackingService

        return TrackingService(self.store, self.url)

    @property
    def judge_lab(self) -> JudgeLabService:
        """Judge prompt versions compared on a frozen split (`w2c judge compare`)."""
        from w2c_tui.services.judge_compare import JudgeLabService

        return JudgeLabService(self.store)

    @property
    def metrics(self) -> MetricsService:
        """When2Call metrics per rater."""
        if self._metrics is None:
            from w2c_tui.services.metrics import MetricsService

            self._metrics = MetricsService(self.store)
        return self._metrics

    @property
    def estimate(self) -> EstimateService:
        """Judge-corrected scores (prediction-powered inference)."""
        from w2c_tui.services.estimate import EstimateService

        return EstimateService(self.store)

    @property
    def runs(self) -> RunService:
        """Evaluation runs."""
        if self._runs is None:
            from w2c_tui.services.runs import RunService

            self._runs = RunService(self.store, self.url)
        return self._runs

    @property
    def roles(self) -> RoleService:
        """Leads and annotators, the lead gate, and `w2c serve`'s invitations."""
        from w2c_tui.services.roles import RoleService

        return RoleService(self.store)

    @property
    def team(self) -> TeamService:
        """Team progress (its α needs the statistics libraries)."""
        if self._team is None:
            from w2c_tui.services.team import TeamService

            self._team = TeamService(self.store)
        return self._team

    @property
    def adjudication(self) -> AdjudicationService:
        """The adjudication queue and decisions."""
        if self._adjudication is None:
            from w2c_tui.services.adjudication import AdjudicationService

            self._adjudication = AdjudicationService(self.store)
        return self._adjudication

    @property
    def qa(self) -> QASummaryService:
        """The item-QA summary (the paper's Table 6 per gold class)."""
        from w2c_tui.services.qa_summary import QASummaryService

        if self._qa is None:
            self._qa = QASummaryService(self.store)
        return self._qa

    @property
    def cleaning(self) -> CleaningService:
        """Plans of cleaned exports (the items export and the preference pairs share it)."""
        from w2c_tui.services.cleaning import CleaningService

        if self._cleaning is None:
            self._cleaning = CleaningService(self.store)
        return self._cleaning

    @property
    def exports(self) -> ExportService:
        """Cleaned datasets with their changelog, and the joined analysis table."""
        from w2c_tui.services.exports import ExportService

        if self._exports is None:
            self._exports = ExportService(self.store, self.cleaning)
        return self._exports

    @property
    def preference(self) -> PreferenceService:
        """Preference pairs for RPO/DPO training."""
        from w2c_tui.services.preference import PreferenceService

        if self._preference is None:
            self._preference = PreferenceService(self.cleaning)
        return self._preference

    @property
    def merge(self) -> MergeService:
        """`w2c merge`: other databases' human work brought into this one."""
        from w2c_tui.services.merge import MergeService

        return MergeService(self.store)

    @property
    def prompts(self) -> PromptService:
        """What a model sees for each item under a template."""
        if self._prompts is None:
            from w2c_tui.services.prompts import PromptService

            self._prompts = PromptService(self.store)
        return self._prompts

    @property
    def critictool(self) -> CriticToolService:
        """CriticTool samples and predictions (issue #11)."""
        if self._critictool is None:
            from w2c_tui.services.critictool import CriticToolService

            self._critictool = CriticToolService(self.store)
        return self._critictool

    def database_file(self) -> str | None:
        """The database's file on this machine (SQLite), None for a server database."""
        return self.store.database_file()

    def close(self) -> None:
        """Release the database."""
        self.store.close()

    def db_info(self) -> DatabaseInfo:
        """The backend, server version, where the database is, and its revision."""
        return self.store.info()

    @property
    def public_url(self) -> str:
        """The database URL fit to show: any password replaced by ***."""
        return display_url(self.url)

    def db_revision(self) -> tuple[str | None, str]:
        """(the database's schema revision, the newest this version knows)."""
        return self.store.revision()


def open_services(url: str | None = None, *, migrate: bool = True) -> Services:
    """Open the database at `url` (default: W2C_DB or annotations/w2c.db) and wire services."""
    db_url = as_database_url(url or default_db_url())
    store = Store.open(db_url, migrate=migrate)
    return Services(
        url=db_url,
        store=store,
        datasets=DatasetService(store),
        imports=ImportService(store),
        review=ReviewService(store),
        labels=LabelService(store),
        assignments=AssignmentService(store),
        guidelines=GuidelineService(store),
        schemas=SchemaService(store),
    )
